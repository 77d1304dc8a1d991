# concatenate of inputs that differ off the join axis -> error: concatenate: input 1 has shape (2, 4), expected (_, 3) to match input 0
import mars.tensor as mt
a = mt.ones((2, 3))
b = mt.ones((2, 4))
print(mt.concatenate([a, b]))
