# vstack of rows of different lengths -> error: vstack: input 1 has shape (1, 2), expected (_, 3) to match input 0
import mars.tensor as mt
print(mt.vstack([mt.ones(3), mt.ones(2)]))
