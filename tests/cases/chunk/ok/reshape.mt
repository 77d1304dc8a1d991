# reshape and ravel rechunk the input so that chunks map one to one
import mars.tensor as mt
x = mt.arange(24, chunks=6)
print(x.reshape(4, 6))
m = mt.ones((4, 6), chunks=(2, 3))
print(m.ravel(), m.reshape(2, 12), m.reshape(4, 2, 3))
