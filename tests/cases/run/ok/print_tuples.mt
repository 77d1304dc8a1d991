# a tuple or list holding tensors prints their repr(), as Python does (values computed in a stage)
import mars.tensor as mt
x = mt.arange(24, chunk_size=5).reshape(4, 6)
print(mt.nonzero(x % 5 == 0))
print("pair:", (x.sum(), x.shape), [x[0, :2], 1.5])
print(mt.where(x > 100))
print((mt.ones((2, 2)), mt.arange(3, dtype=mt.int32)), sep="|")
print((mt.zeros(2000),))
