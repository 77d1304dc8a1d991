# a kth given as a tensor (its value is data) is not supported yet -> error: not supported yet: `kth` given as a tensor
import mars.tensor as mt
x = mt.arange(5)
x.partition(mt.tensor(2))
