# a subscript needs at least one index
import mars.tensor as mt
x = mt.ones(3)[]
