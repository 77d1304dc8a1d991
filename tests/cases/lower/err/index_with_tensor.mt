# integer-array (fancy) indexing is a later feature -> error: not supported yet: indexing with an integer tensor
import mars.tensor as mt
x = mt.arange(5) * 2
print(x[mt.arange(3)])
