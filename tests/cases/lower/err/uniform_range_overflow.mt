# random.uniform whose high - low overflows float64 -> error: Range exceeds valid bounds (NumPy's OverflowError)
import mars.tensor as mt
x = mt.random.uniform(-1e308, 1e308, size=3)
print(x)
