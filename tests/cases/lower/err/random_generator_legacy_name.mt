# a default_rng Generator has no legacy RandomState names -> error: AttributeError: 'numpy.random._generator.Generator' object has no attribute 'randint' (its method is integers)
import mars.tensor as mt
rng = mt.random.default_rng(0)
print(rng.randint(0, 5, size=3))
