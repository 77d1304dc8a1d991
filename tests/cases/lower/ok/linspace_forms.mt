# linspace: the default num=50, endpoint=False, dtype=, and num of 0 and 1
import mars.tensor as mt
print(mt.linspace(0, 1, 5), mt.linspace(0, 1).shape)
print(mt.linspace(0, 1, 4, endpoint=False), mt.linspace(2.0, 3.0, num=3))
print(mt.linspace(-1, 1, 5, dtype=mt.float32), mt.linspace(0, 10, 6, dtype=int))
print(mt.linspace(0, 1, 1), mt.linspace(0, 1, 0), mt.linspace(5, 1, 3))
