# an index equal to the axis length -> error: index 5 is out of bounds for axis 0 with size 5
import mars.tensor as mt
x = mt.arange(5)
print(x[5])
