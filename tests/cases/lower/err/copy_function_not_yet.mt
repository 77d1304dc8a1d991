# np.copy and np.astype exist in NumPy but not in the version-1 library (x.copy() and x.astype() do) -> error: not supported yet: `numpy.copy` is not in marsc's library (version 1)
import numpy as np
x = np.ones(3)
print(np.copy(x))
