# NEP 50 promotion: Python scalars are weak (float32 * 2.0 stays float32, int32 + 1 stays int32), tensors promote by kind
import mars.tensor as mt
f32 = mt.ones(2, dtype=mt.float32)
f64 = mt.ones(2)
i32 = mt.ones(2, dtype=mt.int32)
i64 = mt.ones(2, dtype=mt.int64)
b = mt.ones(2, dtype=bool)
print((f32 * 2.0).dtype, (f32 + 1).dtype, (i32 + 1).dtype, (i32 * 2.5).dtype)
print((i32 + i64).dtype, (i32 + f32).dtype, (i64 + f32).dtype, (f32 + f64).dtype)
print((b + b).dtype, (b * 2).dtype, (b + 1.5).dtype, (b & True).dtype, (b + i32).dtype)
print((f32 / 2).dtype, (i32 / 2).dtype, (i64 / i64).dtype, (i32 // 2).dtype)
print((f32 ** 2).dtype, (i32 ** 2).dtype, (2.0 ** i32).dtype, (i32 < 1.5).dtype)
print(mt.maximum(f32, 0.5).dtype, mt.where(b, f32, 0).dtype, mt.where(b, i32, 0.5).dtype)
print(mt.hypot(i32, i32).dtype, mt.arctan2(f32, 1).dtype, mt.sum(f32 * 3).dtype)
