# load(mmap_mode=True) is not a mode -> error: `mmap_mode` must be None or a string
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode=True))
