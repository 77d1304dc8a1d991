# choice without replacement asks for more items than p gives a chance -> error: Fewer non-zero entries in p than size (NumPy's ValueError)
import mars.tensor as mt
print(mt.random.choice(4, size=3, replace=False, p=[0.5, 0.5, 0.0, 0.0]))
