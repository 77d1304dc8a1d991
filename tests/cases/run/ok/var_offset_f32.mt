# var and std of float32 data far from zero: NumPy's rule, a float32 mean (pairwise float32 sums), float32 deviations and squares, summed in float32
import mars.tensor as mt
f = (mt.arange(4000, dtype=mt.float32, chunks=999) * 7 % 13 / 13 + 1000).astype(mt.float32)
print(f.var(), f.std(), f.var(ddof=1), f.reshape(40, 100).var(axis=0)[:3], f.var().dtype)
g = f.rechunk(4000)
print(g.var(), g.std(ddof=1), g.mean(), f.mean(), g.reshape(40, 100).std(axis=1)[-2:])
h = mt.tensor([1e4 + 0.25, 1e4 + 0.5, 1e4 + 0.125, 1e4], dtype=mt.float32, chunks=3)
print(h.var(), h.std(), h.var(ddof=1), h.mean())
