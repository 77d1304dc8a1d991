# long chains of attribute access, calls and subscripts, and .execute()
import mars.tensor as mt
r = mt.ones((6, 4), chunks=3).astype("float32").reshape(4, 6).T[1:, ::2].sum(axis=0).execute()
print(r, r.shape, r.ndim, r.size, r.dtype, r.nsplits)
