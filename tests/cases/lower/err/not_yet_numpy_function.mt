# any public NumPy name marsc lacks is not supported yet rather than an unknown attribute -> error: not supported yet: numpy.nan_to_num
import numpy as np
print(np.nan_to_num(np.ones(3)))
