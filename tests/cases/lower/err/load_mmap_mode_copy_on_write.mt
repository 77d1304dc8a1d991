# load(mmap_mode='c') gives a writable copy-on-write view -> error: not supported yet: mmap_mode='c'; use mmap_mode='r'
import mars.tensor as mt
a = mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="c", chunks=2)
print(a.sum())
