# seeded random generators with chunk arguments
import mars.tensor as mt
mt.random.seed(42)
u = mt.random.rand(10, 10, chunks=3)
n = mt.random.randn(10, chunk_size=(4,))
r = mt.random.randint(0, 10, size=(5, 5), chunks=2)
g = mt.random.normal(loc=0.0, scale=1.0, size=100)
print(u.mean(), n.std(), r, g.var())
