# partition is a later-version feature -> error: `partition` is not supported yet
import mars.tensor as mt
x = mt.arange(5)
print(mt.partition(x, 2))
