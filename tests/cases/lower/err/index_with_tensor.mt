# integer-array indexing with a tensor is a later-version feature -> error: indexing with a tensor is not supported yet
import mars.tensor as mt
x = mt.arange(5) * 2
print(x[x.argmax()])
