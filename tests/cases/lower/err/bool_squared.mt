# NumPy evaluates array ** 2 with square, which gives int8 for bools, a dtype marsc lacks -> error: not supported yet: NumPy would give int8 here
import mars.tensor as mt
b = mt.arange(4) > 1
print(b ** 2)
