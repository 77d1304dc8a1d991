# load(mmap_mode='r') is common for big files; marsc reads chunks anyway, so the read-only modes are accepted
import numpy as np
a = np.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r")
b = np.load("tests/cases/lower/data/bool_5.npy", mmap_mode="c")
print(a.shape, a.dtype, b.shape, b.dtype)
