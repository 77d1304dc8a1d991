# lstsq returns a plain tuple, as NumPy's (no named fields) -> error: a tuple value has no attribute `x`
import mars.tensor as mt
r = mt.linalg.lstsq(mt.eye(2), mt.ones(2))
print(r.x)
