# in-place updates of a bool tensor: an int result cannot go back into it; `//=` computes in int8, `-=` has no loop
import mars.tensor as mt
b = mt.array([True, False])
b += 1
b //= True
b **= 2
b -= True
b *= 2
print(b)
