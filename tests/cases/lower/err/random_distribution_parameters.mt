# distribution parameters out of their domain are NumPy's ValueErrors at compile time
import mars.tensor as mt
a = mt.random.gamma(-1.0, size=3)
b = mt.random.beta(2.0, 0.0)
c = mt.random.poisson(-0.5)
d = mt.random.binomial(10, 1.5)
e = mt.random.binomial(-3, 0.5)
f = mt.random.choice([1, 2], p=[0.5, 0.6])
g = mt.random.choice(3, size=5, replace=False)
