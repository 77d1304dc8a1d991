# where with tensors and scalars, clip with bounds that are scalars, tensors or None, astype to every dtype
import mars.tensor as mt
x = mt.linspace(-2, 2, 5)
print(mt.where(x > 0, x, 0), mt.where(x > 0, 1, -1), mt.where(x < 0, x, x * 10).dtype)
print(mt.clip(x, -1, 1), x.clip(0, None), mt.clip(x, None, 0.5), mt.clip(x, mt.zeros(5), 1.5))
print(mt.clip(mt.arange(6), 1, 4), mt.clip(mt.arange(6), 1.5, 4).dtype)
print(x.astype(int), x.astype(mt.int32).dtype, x.astype("float32"), x.astype(bool))
print(mt.tensor([True, False]).astype(mt.float64), mt.arange(3).astype(mt.bool), (x > 0).astype(int).sum())
