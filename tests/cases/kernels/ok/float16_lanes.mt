# workers: 1
# a float16 comparison counted in SIMD lanes: (a * 0.3 > 0.25).sum(), the product rounded to float16 in f32x4 lanes, the comparison's i32x4 masks summed in two i64x2 halves, then the scalar tail
import mars.tensor as mt
a = mt.ones(16, dtype=mt.float16, chunks=16)
print((a * 0.3 > 0.25).sum())
