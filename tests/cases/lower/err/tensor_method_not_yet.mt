# an ndarray method outside version 1 is "not supported yet", not an unknown attribute -> error: not supported yet: the tensor method or attribute `put`
import mars.tensor as mt
x = mt.linspace(0, 1, 5)
print(x.put([0], 2.0))
