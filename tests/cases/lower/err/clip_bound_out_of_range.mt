# a clip bound beyond int32 on the side where it would clip is still an error, as in NumPy -> error: Python integer 1099511627776 out of bounds for int32
import mars.tensor as mt
i = mt.tensor([1, -5, 3], dtype=mt.int32)
print(mt.clip(i, 2**40, 2**41))
