# load(mmap_mode='rw') is not one of NumPy's modes -> error: mode must be one of 'r', 'r+', 'w+' or 'c'
import numpy as np
print(np.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="rw"))
