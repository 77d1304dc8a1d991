# a dtype attribute of the library that marsc does not have -> error: not supported yet: `mt.clongdouble`
import mars.tensor as mt
print(mt.zeros(2, dtype=mt.clongdouble))
