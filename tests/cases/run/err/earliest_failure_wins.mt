# two statements fail: the earlier is reported, after the outputs before it, whichever fails first -> error: Integers to negative integer powers are not allowed
import mars.tensor as mt
a = mt.arange(6, chunks=2)
print(a)
print(a.sum())
print(2 ** (a - 3))
mt.save("target/no/such/dir/b.npy", a)
print("never")
