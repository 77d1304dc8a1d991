# Seeding the module again with the same seed repeats its draws, as NumPy's
# `random.seed` does; another seed, or no new seed, does not.
import mars.tensor as mt
mt.random.seed(5)
a = mt.random.rand(3)
b = mt.random.rand(3)
mt.random.seed(5)
c = mt.random.rand(3)
d = mt.random.rand(3)
mt.random.seed(6)
e = mt.random.rand(3)
print(bool((a == c).all()), bool((b == d).all()), bool((a == b).all()), bool((a == e).all()))
