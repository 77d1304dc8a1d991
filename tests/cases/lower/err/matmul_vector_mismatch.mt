# matmul of vectors of different lengths -> error: matmul: inner dimensions differ, (3,) @ (4,): 3 != 4
import mars.tensor as mt
print(mt.matmul(mt.ones(3), mt.ones(4)))
