# dtype names NumPy accepts for the five dtypes: byte-order marks that change nothing, type codes and C-type names
import numpy as np
print(np.ones(2, dtype="=f8").dtype, np.ones(2, dtype="|b1").dtype, np.ones(2, dtype="<i4").dtype)
print(np.ones(2, dtype="long").dtype, np.ones(2, dtype="intp").dtype, np.ones(2, dtype="intc").dtype)
print(np.ones(2, dtype="l").dtype, np.ones(2, dtype="d").dtype, np.ones(2, dtype="f").dtype, np.ones(2, dtype="i").dtype)
