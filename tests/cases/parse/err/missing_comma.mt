# two arguments without a comma between them
import mars.tensor as mt
x = mt.ones((3 3))
