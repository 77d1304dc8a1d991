# three-argument pow() is for Python ints only, as NumPy says -> error: unsupported operand type(s) for ** or pow()
import mars.tensor as mt
print(pow(mt.arange(3), 2, 5))
