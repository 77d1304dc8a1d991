# a NumPy dtype marsc lacks -> error: data type 'complex64' is not supported by marsc (the dtypes are bool, the signed and unsigned integers, float16, float32, float64)
import mars.tensor as mt
x = mt.ones(3)
print(x.astype("complex64"))
