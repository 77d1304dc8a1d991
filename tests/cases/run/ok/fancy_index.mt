# integer-array (fancy) indexing: lists and int tensors on any axis, mixed with basic items, repeats and negatives, several chunkings; take
import mars.tensor as mt
x = mt.arange(20, chunk_size=6) * 10
print(x[[3, 0, 19, -1, 7, 7]])
i = mt.arange(5, chunk_size=2) * 3
print(x[i], x[i].shape)
a = mt.arange(24, chunk_size=5).reshape(4, 6).rechunk((3, 4))
print(a[[2, 0]], a[:, [5, 1, 1]], a[1:, mt.array([[0, 5], [2, 2]])])
print(a[[True, False, True, True]])
b = mt.arange(60).reshape(3, 4, 5)
print(b[1, :, [0, 4]], b[1, :, [0, 4]].shape, b[:, 1, [0, 4]].shape)
centers = mt.array([[0.0, 1.0], [5.0, 5.0], [9.0, 0.5]])
labels = mt.array([2, 0, 0, 1, 2])
print(centers[labels])
y = x[[1, 2]]
y += 1
print(x[:3], y)
print(x[mt.array([], dtype=mt.int64)])
a = mt.arange(24, chunk_size=5).reshape(4, 6)
print(mt.take(a, [5, 0, 23]), mt.take(a, [[1, 2]], axis=1), a.take([3, 1], axis=0))
print(mt.take(a, 7), a.take(-1, axis=1))
big = mt.arange(5000, chunk_size=333) * 2
perm = (mt.arange(1000, chunk_size=77) * 7919) % 5000
print(big[perm].sum(), big[perm][:5], big[perm[::-1]][-3:], big[-perm - 1][:4])
m = mt.arange(200, chunk_size=30).reshape(20, 10).rechunk((6, 4))
print(m[[19, 0, 7], 3:8], m[2:5, [9, 0]], m[[[1], [2]]].shape)
print(mt.take(mt.arange(5) * 10, [True, False]))
