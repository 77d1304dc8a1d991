# casting= on astype and the joining functions follows np.can_cast: same_kind (the joining default) allows int64 to float32 or int32, safe allows bool to float32
import mars.tensor as mt
i = mt.ones(3, dtype=mt.int32)
l = mt.ones(3, dtype=mt.int64)
b = mt.ones(3, dtype=bool)
print(mt.concatenate([l, l], dtype=mt.float32).dtype, mt.stack([l, i], dtype=mt.int32).dtype, mt.hstack([b, i], casting="safe").dtype)
print(l.astype(mt.int32, casting="same_kind").dtype, b.astype(mt.float32, casting="safe").dtype, i.astype(mt.int32, casting="no").dtype)
print(mt.vstack([mt.ones((2, 3)), i], dtype=mt.int32, casting="unsafe").dtype, i.astype(mt.int64, casting="same_value").dtype)
