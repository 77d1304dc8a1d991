# sqrt of bool gives float16 in NumPy, which marsc lacks -> error: sqrt of bool would give float16, which is not supported; hint: astype a float dtype first
import mars.tensor as mt
mask = mt.arange(4) > 1
print(mt.sqrt(mask))
