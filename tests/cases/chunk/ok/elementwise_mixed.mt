# element-wise ops on operands chunked differently are unified to the common refinement; broadcast axes stay whole
import mars.tensor as mt
a = mt.ones(4, chunks=((2, 2),))
b = mt.arange(4, chunks=((3, 1),))
print(a + b)
x = mt.ones((4, 6), chunks=(2, 3))
row = mt.arange(6, chunks=2)
column = mt.ones((4, 1), chunks=(1, 1))
print(mt.sqrt(x * row - column + 1))
print(mt.where(x > row, x, column).astype("float32"))
