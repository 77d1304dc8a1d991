# workers: 4
# a blocked matmul on 4 workers: the element-wise producers of each block fuse into it when only that block reads them; shared blocks stay their own subtasks
import mars.tensor as mt
a = mt.ones((4, 4), chunks=2) + 1
b = mt.ones((4, 2), chunks=2) * 2
print(a @ b)
