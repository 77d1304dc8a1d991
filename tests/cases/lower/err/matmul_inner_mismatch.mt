# matmul whose inner dimensions differ -> error: matmul: inner dimensions differ, (3, 4) @ (3, 4): 4 != 3
import mars.tensor as mt
a = mt.ones((3, 4))
print(a @ a)
