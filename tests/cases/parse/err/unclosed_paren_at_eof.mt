# a bracket still open at the end of the file is reported at the opening bracket
import mars.tensor as mt
x = mt.ones((3, 3)
y = x.sum()
print(y)
