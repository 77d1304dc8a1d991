# var and std of data far from zero (1e10 + small, 1.7e9 + [0, 1), 1e12 + ints) across chunkings, axes, ddof and keepdims: the global mean first, then the squared deviations, as NumPy does
import mars.tensor as mt
t = mt.tensor([1e10 + 0.1, 1e10 + 0.2, 1e10 + 0.3], chunk_size=1)
print(t.var(), t.std(), t.var(ddof=1), mt.var(t, keepdims=True))
u = 1.7e9 + (mt.arange(200000, chunks=20000) * 7919 % 100003) / 100003.0
print(u.var(), u.std(), u.var(ddof=1), u.rechunk(30001).var(), u.rechunk(200000).std(ddof=1))
g = u.reshape(400, 500).rechunk((70, 90))
print(g.var(axis=0)[:4], g.std(axis=1)[-3:], g.var(axis=(0, 1)), g.var(axis=0, keepdims=True).shape)
print(g.T.var(axis=1, ddof=3)[5:8], g.std(axis=(1, 0)))
i = mt.arange(3, 3000003, 1000, chunks=333) + 10 ** 12
print(i.var(), i.std(ddof=2), i.dtype, i.var().dtype)
e = mt.ones((0, 3), chunks=2)
print(mt.ones(5, chunks=2).var(ddof=5), e.var(axis=1), mt.tensor([1.0, 2.0], chunks=1).var(ddof=2))
