# a bool is not a dimension (NumPy: "an integer is required") -> error: `shape` must be an int or a tuple of ints, got a bool inside
import mars.tensor as mt
print(mt.ones((2, True)))
