# a bool is not an axis for a reduction (NumPy: "an integer is required for the axis") -> error: `axis` must be an int, got bool
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.argmax(axis=True))
