# distribution parameters must be numbers in version 1 (NumPy also takes arrays) -> error: not supported yet: a tensor as `loc`
import mars.tensor as mt
mu = mt.zeros(3)
print(mt.random.normal(mu, 1.0))
