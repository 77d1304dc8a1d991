# random.uniform with an infinite or NaN bound -> error: Range exceeds valid bounds (NumPy's OverflowError)
import mars.tensor as mt
print(mt.random.uniform(0.0, 1e309))
