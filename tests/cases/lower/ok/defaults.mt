# default arguments: full infers the dtype from its value, linspace has num=50, eye is square, ddof is 0, keepdims is False
import mars.tensor as mt
print(mt.full(2, 7).dtype, mt.full(2, 7.0).dtype, mt.full(2, False).dtype, mt.ones(2).dtype)
print(mt.linspace(0, 49).shape, mt.linspace(0, 49)[1], mt.eye(3).shape, mt.arange(3.0).dtype)
x = mt.tensor([1.0, 2.0, 3.0, 4.0])
print(x.var(), x.var(ddof=0), x.sum(axis=None).shape, mt.transpose(x.reshape(2, 2)))
print(mt.tensor([1, 2]).dtype, mt.zeros((2, 2)).dtype, mt.arange(0, 5, 1).dtype)
