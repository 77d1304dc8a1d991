# sum() iterates its argument; a 0-d tensor cannot be iterated -> error: iteration over a 0-d array
import mars.tensor as mt
print(sum(mt.tensor(2.5)))
