# reduction result dtypes: sum/prod of ints and bools give int64, mean of ints float64, float32 stays float32
import mars.tensor as mt
i32 = mt.arange(5, dtype=mt.int32)
f32 = mt.linspace(0, 1, 5, dtype=mt.float32)
b = i32 > 1
print(i32.sum().dtype, i32.prod().dtype, b.sum(), b.sum().dtype, i32.max().dtype)
print(i32.mean(), i32.mean().dtype, f32.mean().dtype, f32.sum().dtype, f32.std().dtype)
print(b.mean(), b.all(), b.any(), b.max(), mt.count_nonzero(i32), i32.argmax().dtype)
print(mt.all(i32), mt.any(f32), mt.var(i32), mt.var(i32).dtype)
