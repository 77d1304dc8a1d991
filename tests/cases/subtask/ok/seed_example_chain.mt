# fuse: chain
# the seed's example under chain fusion only (the Mars baseline): add, sum map and finish form a chain, the random inputs do not
import mars.tensor as mt
a = mt.random.rand(100, chunks=100)
b = mt.random.rand(100, chunks=100)
print((a + b).sum())
