# an integer raised to a negative integer power fails at run time, as in NumPy, after the sum before it is printed -> error: Integers to negative integer powers are not allowed
import mars.tensor as mt
a = mt.arange(6, chunks=4)
print(a.sum())
b = a - 3
print(2 ** b)
