# shape operations on chunks: reshape (which crosses chunk borders), ravel, transpose with axes, swapaxes, expand_dims, squeeze, broadcast_to
import mars.tensor as mt
x = mt.arange(24, chunks=5).reshape(2, 3, 4)
print(x, x.reshape(4, 6), x.reshape(-1, 8).rechunk(3), mt.ravel(x.T))
print(x.transpose(1, 0, 2), x.transpose((2, 0, 1)).shape, mt.transpose(x)[1], mt.swapaxes(x, 0, 2)[0])
y = mt.arange(6, chunks=4)
print(mt.expand_dims(y, 0), mt.expand_dims(y, axis=1).shape, y[:, None, None].squeeze(), mt.squeeze(y.reshape(1, 6, 1), axis=2))
print(mt.broadcast_to(y, (3, 6)), mt.broadcast_to(mt.arange(3).reshape(3, 1), (3, 4)))
print(x.T.reshape(24)[::5], x[:, ::2].reshape(2, 2, 4).sum(axis=1))
