# chained comparisons on Python values (each operand evaluated once, the first false comparison's value), on one-element tensors (staged), and repr()/str() of Python values, tuples, 0-d and n-d tensors of several dtypes, as the REPL echoes them
import mars.tensor as mt
n = 5
print(0 <= 3 < n, 1 < 2 > 3, 1 == 1.0 != 2 < 3, 2 < n <= 5 < 6, "a" < "b" < "c", 1 < 2 < 3 < 2)
print(0 < n < 10 and n % 2 == 1, not 0 < n < 3, [i for i in range(10) if 2 <= i < 5])
x = mt.arange(6, chunks=4)
t = x.sum()
print(0 < t < 100, 20 < t < 100, 1 < x[2] <= 2)
print(repr(n), repr(2.5), repr("a'b"), repr((1, None, [True])), str(3), str(), str("text"))
print(repr(x), repr(t), repr(x.astype(mt.float32) / 4), repr(x.reshape((2, 3)) > 2))
print(str(x), str(t), repr(mt.ones((2, 2), dtype=mt.complex128) * 1j), repr(x.mean()), repr(mt.int32(7)))
