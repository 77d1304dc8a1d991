# as in NumPy, a length-0 axis does not excuse the others: their product must still fit -> error: array is too big
import mars.tensor as mt
print(mt.zeros((0, 2**62, 2**62)).shape)
