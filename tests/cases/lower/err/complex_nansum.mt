# a statistic of complex values, composed of ops whose complex semantics are not checked yet -> error: not supported yet: `nansum` of complex values
import mars.tensor as mt
print(mt.nansum(mt.array([1j, mt.nan + 0j, 2 + 0j])))
