# argmax takes one axis, not a tuple -> error: argmax takes axis=None or an int, found a tuple
import mars.tensor as mt
x = mt.ones((2, 3))
print(x.argmax(axis=(0, 1)))
