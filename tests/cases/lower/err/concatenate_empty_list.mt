# concatenate of nothing -> error: concatenate needs at least one tensor
import mars.tensor as mt
print(mt.concatenate([]))
