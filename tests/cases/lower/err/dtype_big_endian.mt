# a big-endian dtype is valid NumPy but marsc computes in native byte order -> error: not supported yet: the big-endian data type '>f4'
import numpy as np
print(np.zeros(3, dtype=">f4"))
