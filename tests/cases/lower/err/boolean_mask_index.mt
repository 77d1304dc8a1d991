# boolean-mask indexing is a later-version feature -> error: boolean-mask indexing is not supported yet
import mars.tensor as mt
x = mt.linspace(-1, 1, 5)
print(x[x > 0])
