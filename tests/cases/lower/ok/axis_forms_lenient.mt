# expand_dims, stack and swapaxes read axes with operator.index, as NumPy does: lists and bools are accepted there
import mars.tensor as mt
x = mt.ones((2, 3))
print(mt.expand_dims(x, [0, -1]).shape, mt.expand_dims(x, True).shape, mt.stack([x, x], axis=True).shape)
print(x.swapaxes(True, False).shape, mt.transpose(x, [1, 0]).shape, x.reshape([3, 2]).shape, mt.arange(0, 3, True))
