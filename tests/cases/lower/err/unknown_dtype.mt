# a NumPy dtype outside the five -> error: data type 'float16' is not supported by marsc (the dtypes are bool, int32, int64, float32, float64)
import mars.tensor as mt
x = mt.ones(3)
print(x.astype("float16"))
