# a closing bracket of the wrong kind
import mars.tensor as mt
x = mt.ones((3, 3])
