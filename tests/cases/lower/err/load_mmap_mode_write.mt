# load(mmap_mode='w+') would create a new file -> error: not supported yet: mmap_mode='w+'; marsc maps files read-only
import numpy as np
print(np.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="w+"))
