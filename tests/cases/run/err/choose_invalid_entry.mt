# an index of choose outside [0, n) with mode='raise' is found at run time, NumPy's ValueError naming the call, after what ran before it printed -> error: invalid entry in choice array
import mars.tensor as mt
a = mt.arange(10, chunks=3) % 4
print(mt.choose(a, [a, a * 10, a * 100, -a]))
b = a - 1
print(mt.choose(b, [a, a * 10, a * 100], mode="clip").sum())
print(mt.choose(b, [a, a * 10, a * 100]))
