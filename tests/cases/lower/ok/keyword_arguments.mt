# NumPy's parameter names work as keywords, in any order
import mars.tensor as mt
x = mt.arange(6).reshape(2, 3)
print(mt.ones(shape=(2, 2), dtype=int), mt.full(fill_value=3.5, shape=2), mt.zeros(dtype=bool, shape=1))
print(mt.linspace(start=0, stop=1, num=3), mt.linspace(0, stop=2, num=3, endpoint=False))
print(mt.eye(N=2, M=3, k=1), mt.identity(n=2, dtype=int))
print(mt.sum(x, axis=0, keepdims=True), mt.mean(x, keepdims=True, axis=1), mt.var(x, ddof=1, axis=1))
print(mt.concatenate([x, x], axis=1).shape, mt.stack(arrays=[x, x], axis=2).shape)
print(mt.transpose(x, axes=(1, 0)).shape, mt.where(x > 2, x, -1), mt.clip(x, 1, 3))
print(mt.expand_dims(x, axis=0).shape, mt.squeeze(x[None], axis=0).shape, mt.swapaxes(x, axis1=0, axis2=1).shape)
print(mt.cumsum(x, axis=1), mt.broadcast_to(mt.arange(3), shape=(2, 3)), x.astype(dtype="float32").dtype)
