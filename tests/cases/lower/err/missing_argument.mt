# a required argument left out -> error: `full` is missing its required argument `fill_value`
import mars.tensor as mt
print(mt.full((2, 2)))
