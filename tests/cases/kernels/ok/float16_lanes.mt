# workers: 1
# a float16 comparison counted in SIMD lanes: ((a * 2 + 1) > 2).sum(), each op rounded to float16, masks summed in int64 lanes
import mars.tensor as mt
a = mt.array([0.5, 0.25, 1.5, -2.0, 0.75, 3.0, 0.125, 1.0, 0.5, 2.5, -0.5, 0.0, 4.0, 0.375, 0.625, 9.0], dtype=mt.float16, chunks=16)
print(((a * 2 + 1) > 2).sum())
