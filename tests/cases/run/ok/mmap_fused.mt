# mapped loads read in place by fused kernels (each load has one reader and is never printed raw, so every chunk is a JIT leaf at its own offset): odd chunks, reductions over each axis
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 3)) * 2.0 - 1.0)
print((mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 3)) * 3.0).sum())
print((mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 3)) + 1.0).sum(axis=0))
print((mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 3)) - 0.5).max(axis=1))
print(mt.load("tests/cases/lower/data/i64_5x7.npy", mmap_mode="r", chunks=(2, 3)) * 3 + 1)
print((mt.load("tests/cases/lower/data/i64_5x7.npy", mmap_mode="r", chunks=(2, 3)) * 2).sum(axis=0))
print((mt.load("tests/cases/lower/data/i64_5x7.npy", mmap_mode="r", chunks=(2, 3)) - 1).sum(axis=1))
print((mt.load("tests/cases/lower/data/i64_5x7.npy", mmap_mode="r", chunks=(2, 3)) + 0).min())
print(mt.load("tests/cases/lower/data/f32_6.npy", mmap_mode="r", chunks=4) * 2)
print((mt.load("tests/cases/lower/data/f32_6.npy", mmap_mode="r", chunks=4) * 3).sum())
print((mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 3)) + mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 3))).mean(axis=0))
