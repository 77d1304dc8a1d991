# a misspelled field of eigh's EighResult, read straight off the call -> error: a named tuple `EighResult` has no attribute `eigenvalue` (did you mean `eigenvalues`?)
import mars.tensor as mt
w = mt.linalg.eigh(mt.eye(3)).eigenvalue
print(w)
