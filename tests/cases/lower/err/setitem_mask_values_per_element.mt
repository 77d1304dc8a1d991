# one value per selected element through a mask needs the count, known only at run time -> error: not supported yet: assigning one value per selected element
import mars.tensor as mt
x = mt.arange(6)
x[x > 2] = mt.arange(6)
