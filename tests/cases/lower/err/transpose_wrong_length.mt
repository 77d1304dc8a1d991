# transpose axes with the wrong number of entries -> error: axes (1, 0) don't match a tensor of dimension 3
import mars.tensor as mt
x = mt.ones((2, 3, 4))
print(x.transpose((1, 0)))
