# float16 kernels in SIMD lanes (rows long enough for 8-element steps and a scalar tail): comparisons of rounded float16 chains counted (sum, count_nonzero, any, all), masks combined, where, astype float32/bool, float32 sums and means, sums over a leading axis; equal to NumPy's
import mars.tensor as mt
a = (mt.arange(3001, chunks=701) * 0.0137).astype(mt.float16)
b = mt.sin(mt.arange(3001, chunks=701) * 0.5).astype(mt.float16) * 2
print(((a * 2 + 1) > 2).sum(), mt.count_nonzero(a * b > 0.5), (a > 40).any(), (b * 3 < 7).all(), (a * 0 == 0).all())
print(((a > 1) & (b < 0)).sum(), (~(a > 1) | (b > 1)).sum(), mt.logical_xor(a > 20, b >= 0).sum(), (a * 2 != b).sum())
w = mt.where(a * b > 0, a * b, b - 1)
print(w[::250], w.dtype, (a > b).astype(mt.float16).sum(), (a - b).astype(mt.bool_).sum())
print((a * b).astype(mt.float32).max(), (a * 2 + 1).mean(), (a * b).sum(), (a - b * 3).astype(mt.float32).sum())
print(mt.isnan(a / b).sum(), mt.isinf(a * 100 / (b * b)).sum(), mt.isfinite(a * 1000).sum(), mt.logical_not(b * 2).sum())
m = (mt.arange(6000, chunks=1500).reshape(60, 100) * 0.013).astype(mt.float16)
print((m * 2 + 1).astype(mt.float32).sum(axis=0)[::11], (m * m).mean(axis=0)[::13], ((m - 3) * 0.5).astype(mt.float32).max(axis=0)[::17])
print(((m * 2) > 40).sum(axis=1)[::5], ((m - 3) * 0.001 + 1).astype(mt.float32).prod(axis=0)[:4], (m * 2 > 40).any(axis=0)[:3])
