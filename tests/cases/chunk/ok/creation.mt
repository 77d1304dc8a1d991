# creation ops tile into independent chunks that each know their global offset
import mars.tensor as mt
a = mt.ones((4, 6), chunks=(2, 3))
b = mt.arange(10, chunks=4)
c = mt.linspace(0.0, 1.0, 7, chunks=3)
d = mt.eye(5, chunks=2)
e = mt.tensor([[1, 2, 3], [4, 5, 6]], chunks=(1, 2))
f = mt.random.rand(5, 4, chunks=(3, 2))
g = mt.full((3,), 7, chunks=2)
print(a, b, c, d, e, f, g)
