# where's three operands must broadcast together -> error: shapes (2,), (3,) and () cannot be broadcast together
import mars.tensor as mt
print(mt.where(mt.ones(2) > 0, mt.ones(3), 0))
