# diff with prepend/append: scalars (broadcast to the shape with axis length 1), arrays, lists, both at once, on any axis with n > 1, promoting dtypes as concatenate does (int32 with a Python float, bools with ints), under two chunkings
import mars.tensor as mt
for c in [2, (3, 2)]:
    a = (mt.arange(20).reshape((4, 5)) * 3 - mt.arange(5) ** 2).rechunk(c)
    print(mt.diff(a, prepend=0), mt.diff(a, append=100, axis=0))
    print(mt.diff(a, n=2, prepend=mt.ones((4, 1)), append=mt.arange(8).reshape((4, 2))))
    print(mt.diff(a, axis=0, prepend=a[:1] * 2, append=[[1, 2, 3, 4, 5]]))
    print(mt.diff(a, n=3, axis=-2, prepend=-1.5, append=mt.tensor(7)))
    print(mt.diff(a.astype(mt.int32), prepend=2.5).dtype, mt.diff(a.astype(mt.int32), prepend=mt.tensor([[1], [2], [3], [4]], dtype=mt.int32)).dtype)
    print(mt.diff(mt.tensor([True, False, True], chunks=2), prepend=True), mt.diff(mt.tensor([True, False]), append=[3]))
    print(mt.diff(mt.arange(6, chunks=4), n=0, prepend=9), mt.diff(mt.arange(6, chunks=4), n=5, append=[1, 2]))
    print(mt.diff(mt.zeros((0, 3)), axis=0, prepend=1), mt.diff(mt.arange(5.0, chunks=2), prepend=mt.nan, append=mt.inf))
