# tuples: (), (a,), bare tuples as values and expression statements
import mars.tensor as mt
empty = ()
one = (3,)
shape = 2, 3
also = (2, 3,)
a = mt.zeros(shape)
b = mt.ones(one)
print(empty, one, shape, also, a, b)
a, b
a.shape, b.shape,
