# sort is a later-version feature -> error: `sort` is not supported yet (not in version 1)
import mars.tensor as mt
x = mt.arange(5)
print(mt.sort(x))
