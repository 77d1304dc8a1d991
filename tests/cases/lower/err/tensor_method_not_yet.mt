# an ndarray method outside version 1 is "not supported yet", not an unknown attribute -> error: not supported yet: the tensor method or attribute `round`
import mars.tensor as mt
x = mt.linspace(0, 1, 5)
print(x.round(2))
