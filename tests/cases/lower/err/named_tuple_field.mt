# a field a named tuple does not have, with the closest field as help -> error: a named tuple `SVDResult` has no attribute `s` (did you mean `S`?)
import mars.tensor as mt
r = mt.linalg.svd(mt.ones((6, 2), chunks=3), full_matrices=False)
print(r.U.shape, r.s)
