# isin: against Python lists (nested, empty, a scalar, NaN never matches), against a small tensor read in a stage, invert
import mars.tensor as mt
x = mt.arange(12, chunk_size=5).reshape(3, 4)
print(mt.isin(x, [2, 4, 11]), mt.isin(x, mt.array([1, 5]), invert=True).sum())
print(mt.isin(mt.array([1.0, float("nan")]), [float("nan"), 1]), mt.isin(x, []).any(), mt.isin(x, 3).sum())
print(mt.isin(x, [[1, 2], [3, 9]]).sum(), mt.isin(x % 5, x[0, :2]).sum())
