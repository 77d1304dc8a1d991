# max() of a tensor whose first axis is empty is Python's ValueError -> error: max() arg is an empty sequence
import mars.tensor as mt
print(max(mt.zeros((0, 2))))
