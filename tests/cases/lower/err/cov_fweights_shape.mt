# cov whose fweights have another length than the observations -> error: incompatible numbers of samples and fweights
import mars.tensor as mt
x = mt.arange(12.0).reshape((3, 4))
print(mt.cov(x, aweights=[1.0, 2.0, 3.0, 4.0], fweights=[1, 2, 3]))
