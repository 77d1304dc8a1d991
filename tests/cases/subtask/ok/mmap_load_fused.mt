# a load with mmap_mode='r' cannot fail once mapped, so it joins its readers' group: (a + b).sum() is one subtask per chunk, while a plain load ends its group
import mars.tensor as mt
a = mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 4))
b = mt.load("tests/cases/lower/data/f64_3x4.npy", mmap_mode="r", chunks=(2, 4))
c = mt.load("tests/cases/lower/data/f64_3x4.npy", chunks=(2, 4))
print((a + b).sum(), (c * 2).sum())
