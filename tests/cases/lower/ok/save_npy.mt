# save writes a .npy file from any tensor; the path is a string (mt.save and np.save alike)
import mars.tensor as mt
import numpy as np
x = mt.arange(12, chunks=5).reshape(3, 4) / 2
mt.save("/tmp/marsc_lower_case_save_f64.npy", x)
np.save("/tmp/marsc_lower_case_save_bool.npy", x > 2)
save("/tmp/marsc_lower_case_save_i32.npy", x.astype(mt.int32).T)
print(x.shape, x.dtype)
