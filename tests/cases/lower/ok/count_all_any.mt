# count_nonzero, all and any on ints, floats and bools, with axes
import mars.tensor as mt
x = mt.tensor([[0, 1, 2], [0, 0, 3]])
print(mt.count_nonzero(x), mt.count_nonzero(x, axis=0), mt.count_nonzero(x, axis=1))
print(x.all(), x.any(), x.all(axis=0), mt.any(x, axis=1), mt.any(x > 2, axis=(0, 1)))
print(mt.all(mt.tensor([0.5, -1.0])), mt.any(mt.zeros(3)), mt.all(mt.ones((0,))))
