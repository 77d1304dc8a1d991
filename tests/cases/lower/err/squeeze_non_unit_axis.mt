# squeezing an axis whose length is not 1 -> error: cannot squeeze axis 1 of length 3
import mars.tensor as mt
print(mt.squeeze(mt.ones((1, 3)), axis=1))
