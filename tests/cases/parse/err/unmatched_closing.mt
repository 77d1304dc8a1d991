# a closing bracket with nothing to close
import mars.tensor as mt
x = mt.ones(3))
