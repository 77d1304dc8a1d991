# concatenate, stack, hstack and vstack of tensors with different chunkings; mixed dtypes promote
import mars.tensor as mt
a = mt.arange(12, chunks=5).reshape(3, 4)
b = mt.arange(100, 112, chunks=2).reshape(3, 4)
print(mt.concatenate([a, b]), mt.concatenate([a, b, a], axis=1), mt.concatenate((a, b.T.T), axis=-1).sum(axis=0))
print(mt.stack([a, b]), mt.stack([a, b], axis=2)[1], mt.hstack([a[0], b[1]]), mt.vstack([a, b[:1]]))
print(mt.concatenate([a.astype(float) / 2, b]), mt.hstack((mt.arange(3, chunks=2), mt.zeros(0, dtype=int), mt.arange(2))))
