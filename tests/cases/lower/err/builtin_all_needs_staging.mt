# all(t) is a Python bool computed from the tensor's values: not supported yet -> error: not supported yet: the Python bool all() of a tensor needs staged execution
import mars.tensor as mt
print(all(mt.arange(3) > 0))
