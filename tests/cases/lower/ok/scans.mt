# cumsum and cumprod: axis=None flattens, an axis scans along it, int32 and bool scan in int64
import mars.tensor as mt
x = mt.arange(1, 7).reshape(2, 3)
print(mt.cumsum(x), x.cumsum(axis=0), x.cumsum(axis=1), x.cumsum(axis=-1).shape)
print(mt.cumprod(x), x.cumprod(axis=1), mt.cumprod(x, 0))
print(mt.cumsum(mt.arange(4, dtype=mt.int32)).dtype, mt.cumsum(mt.tensor([True, True, False])))
print(mt.cumsum(mt.linspace(0, 1, 3, dtype=mt.float32)).dtype, mt.cumsum(mt.tensor(5)))
