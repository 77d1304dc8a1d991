# expand_dims with an int, a negative int and a tuple of axes; squeeze of every length-1 axis or the chosen ones
import mars.tensor as mt
x = mt.arange(6).reshape(2, 3)
print(mt.expand_dims(x, 0).shape, mt.expand_dims(x, -1).shape, mt.expand_dims(x, axis=1).shape)
print(mt.expand_dims(x, (0, 3)).shape, mt.expand_dims(x, (-1, 0)).shape)
y = mt.ones((1, 3, 1, 2, 1))
print(mt.squeeze(y).shape, y.squeeze(axis=0).shape, mt.squeeze(y, axis=(2, -1)).shape)
print(mt.squeeze(mt.tensor([[5]])), mt.squeeze(mt.tensor([[5]])).shape, mt.expand_dims(mt.tensor(1.5), 0))
