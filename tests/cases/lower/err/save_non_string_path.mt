# save with a tensor where the path should be -> error: expected a string path for `save`, found a tensor
import mars.tensor as mt
x = mt.ones(3)
mt.save(x, "out.npy")
