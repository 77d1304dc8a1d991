# histogram's string bin rules ('auto', 'fd', ...) are not implemented -> error: not supported yet: `bins` given as a string
import mars.tensor as mt
a = mt.arange(10)
print(mt.histogram(a, bins="auto"))
