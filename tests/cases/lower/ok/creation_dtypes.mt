# dtype names: mt.float32, np.int32, strings, and the Python names float, int, bool
import mars.tensor as mt
import numpy as np
print(mt.ones(2, dtype=mt.float32).dtype, mt.ones(2, dtype=np.int32).dtype)
print(mt.zeros(2, dtype="int64").dtype, mt.zeros(2, dtype="float64").dtype)
print(mt.ones(2, dtype=float).dtype, mt.ones(2, dtype=int).dtype, mt.ones(2, dtype=bool))
print(mt.arange(3, dtype="float32"), mt.full(2, 3, dtype=np.float32))
print(mt.tensor([1, 2], dtype=mt.bool), mt.tensor([1.9, -1.9], dtype="int32"))
