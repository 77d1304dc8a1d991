# float16 in fused JIT kernels: chains rounded to float16 after every op (a*2+1 rounds twice), mixed float16/float32/int8 promotion, functions, comparisons, where, astype both ways, saved in place; equal to NumPy's bits
import mars.tensor as mt
a = mt.arange(0, 2.5, 0.125, chunks=7).astype(mt.float16) / 3
b = mt.linspace(-4, 4, 20, chunks=6).astype(mt.float16)
print(a * 2 + 1, (a * 2 + 1).dtype)
print(a * a + b * b, mt.sqrt(a * a + b * b), mt.hypot(a, b))
print((a + 0.1) * 3 - a, (a * 1000 + 65000), -(b * b * b) / 7)
x = mt.array([1.0009765625, 1.5, 2049, 0.1, -0.0, 6e-8, 65504, 1e-4], dtype=mt.float16, chunks=3)
print(x * x + x, x * x * x, (x + 1) * (x - 1), x * 3 // 2, x % 0.7)
print(mt.exp(a) - 1, mt.log1p(a) * 2, mt.sin(b) + mt.cos(b), mt.arctan2(a, b + 1))
f = mt.arange(20, chunks=7).astype(mt.float32) / 7
i = mt.arange(-10, 10, chunks=6).astype(mt.int8)
print(a + f, (a + f).dtype, a * i, (a * i).dtype, i.astype(mt.float16) / 3, mt.sqrt(abs(i) * 2).dtype)
print(a.astype(mt.float64) * 3, (b * 7).astype(mt.int8), (b * 1000).astype(mt.int16), (b * 9).astype(mt.uint8))
print(f.astype(mt.float16) * 3, (f * 1e5).astype(mt.float64).astype(mt.float16), i.astype(mt.float16) * i)
print(a * 2 > b, (a * 3 - 1) == 0, mt.where(b > 0, b * a, a - 1), mt.where(b * a > 0.1, 1, b).dtype)
print(mt.maximum(a, b * 0.1), mt.fmin(b, mt.float16(mt.nan)), mt.isnan(b / a), mt.isinf(b * 1e4))
print((a * 2 + 1).sum(), (a * 2 + 1).mean(), (b * b).max(), (b * 3).min(), ((a * 3) > 1).sum())
print((a * b).astype(mt.float32).sum(), (a * 2 + 1).astype(mt.float32).max())
mt.save("/tmp/marsc_float16_fused.npy", mt.sqrt(a * a + b * b) * 3)
print(mt.load("/tmp/marsc_float16_fused.npy"))
