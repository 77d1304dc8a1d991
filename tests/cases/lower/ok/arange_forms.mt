# arange with one, two or three arguments, float steps, negative steps, keywords and empty results
import mars.tensor as mt
print(mt.arange(5), mt.arange(2, 7), mt.arange(1, 10, 3))
print(mt.arange(5.0), mt.arange(0, 1, 0.25), mt.arange(0, 1, 0.1).shape)
print(mt.arange(10, 0, -3), mt.arange(-2, 2))
print(mt.arange(start=1, stop=5, step=2), mt.arange(3, dtype=mt.float32))
print(mt.arange(5, 2), mt.arange(5, 2).shape)
print(mt.arange(0.5, 3), mt.arange(1, 2, 0.5).dtype)
