# transpose, swapaxes, expand_dims, squeeze and broadcast_to relabel chunks without moving data
import mars.tensor as mt
x = mt.ones((4, 6), chunks=(2, 3))
print(x.T, mt.swapaxes(x, 0, 1))
y = mt.expand_dims(x, 1)
print(y.shape, mt.squeeze(y, axis=1))
print(mt.broadcast_to(mt.arange(6, chunks=3), (5, 6)))
