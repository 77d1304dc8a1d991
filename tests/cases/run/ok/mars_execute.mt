# mars.execute(*tensors): the one tensor, or a tuple of them, as Mars gives
import mars
import mars.tensor as mt
a = mt.arange(4, chunks=2)
b = a * 2
c = mars.execute(a + 1)
print(c)
x, y = mars.execute(a, b)
print(x, y)
