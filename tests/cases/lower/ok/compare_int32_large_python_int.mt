# NumPy 2 compares an int32 tensor with a Python int beyond int32 exactly, and clip drops a bound beyond the dtype's range on its no-op side
import mars.tensor as mt
i = mt.tensor([1, -5, 3], dtype=mt.int32)
print(i < 2**40, i == -2**40, 2**40 > i, i >= 2**31, mt.not_equal(i, 2**62))
print(mt.clip(i, 0, 2**40), i.clip(-2**40, 2), (i < 2**40).dtype, mt.clip(i, None, 2**40).dtype)
