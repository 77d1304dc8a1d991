# a NaN-skipping reduction of complex values -> error: not supported yet: `nanmax` of complex128 tensors
import mars.tensor as mt
print(mt.nanmax(mt.array([1j, mt.nan + 0j])))
