# reductions over axes with and without keepdims on uneven chunks: sum, prod, mean, max, min, var and std (ddof), argmax, argmin, all, any, count_nonzero; NaN propagates through max
import mars.tensor as mt
x = (mt.arange(60, chunks=7).reshape(3, 4, 5) * 7 % 11 - 5)
print(x.sum(), x.sum(axis=0), x.sum(axis=(0, 2)), x.sum(axis=-1, keepdims=True))
print(x.prod(axis=1), x.mean(), x.mean(axis=(1, 2)), x.max(axis=2), x.min(axis=(0, 1)))
print(x.var(), x.std(axis=0), x.var(axis=1, ddof=1), x.std(ddof=2))
print(x.argmax(), x.argmin(), x.argmax(axis=1), x.argmin(axis=2), mt.argmax(x, axis=0))
print(x.all(), (x != 0).all(axis=0), x.any(axis=2), mt.count_nonzero(x), mt.count_nonzero(x, axis=1))
f = mt.linspace(0, 1, 37, chunks=5).reshape(37) ** 2
print(f.sum(), f.mean(), f.std(), f.max(), f.argmin())
n = mt.tensor([[1.0, 0.0, 3.0], [4.0, 5.0, 6.0]], chunks=1) / mt.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
print(n.max(), n.max(axis=0), n.min(axis=1), n.sum(axis=1), n.argmax(axis=1))
i = mt.arange(10, dtype=mt.int32, chunks=3)
print(i.sum(), i.sum().dtype, i.mean(), i.prod(), mt.ones(5, dtype=bool, chunks=2).sum())
f32 = mt.arange(10, dtype=mt.float32, chunks=4) / 7
print(f32.sum(), f32.mean(), f32.var(), f32.sum().dtype)
