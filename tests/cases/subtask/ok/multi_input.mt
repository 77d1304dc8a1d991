# an element-wise tree with three inputs and a scalar fuses per chunk into one subtask, creation ops included
import mars.tensor as mt
x = mt.random.rand(6, chunks=3)
y = mt.arange(6, chunks=3)
z = mt.linspace(0, 1, 6, chunks=3)
print(mt.where(x > 0.5, x * y, z - y))
