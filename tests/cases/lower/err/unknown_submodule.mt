# a sub-namespace marsc does not have -> error: unknown function `mt.linalg.inv` (no namespace `linalg`)
import mars.tensor as mt
a = mt.eye(3)
print(mt.linalg.inv(a))
