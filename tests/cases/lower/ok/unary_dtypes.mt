# result dtypes of unary functions: float math on ints gives float64, float32 stays float32, rounding keeps ints
import mars.tensor as mt
i32 = mt.arange(1, 4, dtype=mt.int32)
i64 = mt.arange(1, 4)
f32 = mt.ones(3, dtype=mt.float32)
b = mt.tensor([True, False, True])
print(mt.sqrt(i32).dtype, mt.sqrt(i64).dtype, mt.sqrt(f32).dtype, mt.exp(f32).dtype)
print(mt.abs(i32).dtype, mt.negative(i32).dtype, mt.square(i32).dtype, mt.sign(i64).dtype)
print(mt.floor(i32).dtype, mt.ceil(i64).dtype, mt.trunc(f32).dtype, mt.rint(i32).dtype)
print(mt.isnan(i32).dtype, mt.logical_not(f32).dtype, mt.abs(b).dtype, mt.invert(b).dtype)
print(mt.reciprocal(i64), mt.reciprocal(f32).dtype, mt.invert(i32))
