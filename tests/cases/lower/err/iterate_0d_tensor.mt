# iterating over a 0-d tensor -> error: cannot iterate over a 0-d tensor
import mars.tensor as mt
for v in mt.ones(()):
    print(v)
