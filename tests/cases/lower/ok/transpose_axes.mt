# transpose: .T reverses axes, axes= permutes them (negative entries too), the method takes a tuple or separate ints
import mars.tensor as mt
x = mt.arange(24).reshape(2, 3, 4)
print(x.T.shape, mt.transpose(x).shape, mt.transpose(x, (1, 0, 2)).shape)
print(mt.transpose(x, axes=(2, 0, 1)).shape, x.transpose((0, 2, 1)).shape, x.transpose(1, 2, 0).shape)
print(mt.transpose(x, (-1, 0, 1)).shape, mt.swapaxes(x, 0, 2).shape, x.swapaxes(-1, 1).shape)
print(mt.arange(6).reshape(2, 3).T, mt.arange(3).T, mt.tensor(5).T)
print(x.transpose(2, 0, 1)[1])
