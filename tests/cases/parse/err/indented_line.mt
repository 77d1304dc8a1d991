# a line that starts with indentation is an error: version 1 has no blocks
import mars.tensor as mt
x = mt.ones(3)
    y = x + 1
print(x)
