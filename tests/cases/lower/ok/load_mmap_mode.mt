# load(mmap_mode='r') (and NumPy's alias 'readonly') maps the file read-only; the shape and dtype come from the header as for a plain load
import numpy as np
a = np.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r")
b = np.load("tests/cases/lower/data/bool_5.npy", mmap_mode="readonly")
print(a.shape, a.dtype, b.shape, b.dtype)
