# Mars' ExecutableTuple is not needed (one script is one job) and not in version 1 -> error: not supported yet: `mars.tensor.ExecutableTuple`
import mars.tensor as mt
z = mt.zeros((3, 3))
t = mt.ones((3, 3))
mt.ExecutableTuple([z, t]).execute()
