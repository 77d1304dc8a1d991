# broadcasting follows NumPy: trailing axes align, length-1 axes stretch, scalars and 0-d tensors go anywhere
import mars.tensor as mt
col = mt.arange(3).reshape(3, 1)
row = mt.arange(4)
print(col + row, (col + row).shape)
m = mt.ones((2, 3, 4))
print((m * row).shape, (m + col).shape, (m - mt.ones((2, 1, 1))).shape)
print((m + mt.tensor(5.0)).shape, (row * 2.5 + mt.sum(row)).shape)
print(mt.broadcast_to(row, (2, 4)), mt.broadcast_to(mt.tensor(3), (2,)))
print(mt.broadcast_to(col, (3, 2)).shape, (mt.ones((0, 3)) + mt.ones(3)).shape)
print(mt.maximum(col, row).shape, mt.where(col > 0, row, -row).shape)
