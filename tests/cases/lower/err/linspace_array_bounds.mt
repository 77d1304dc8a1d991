# linspace with an array start or stop (one sequence per element in NumPy) is not in version 1 -> error: not supported yet: a list as `stop` of `linspace()`
import mars.tensor as mt
print(mt.linspace(0, [1, 2], 5))
