# a NumPy dtype marsc lacks -> error: data type 'complex256' is not supported by marsc (the dtypes are bool, the signed and unsigned integers, float16, float32, float64, complex64, complex128)
import mars.tensor as mt
x = mt.ones(3)
print(x.astype("complex256"))
