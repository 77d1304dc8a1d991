# a negative index before the start -> error: index -4 is out of bounds for axis 1 with size 3
import mars.tensor as mt
x = mt.ones((2, 3))
print(x[0, -4])
