# a dtype name marsc does not know -> error: unknown dtype "float16" (the dtypes are bool, int32, int64, float32, float64)
import mars.tensor as mt
x = mt.ones(3)
print(x.astype("float16"))
