# element-wise operands whose shapes cannot broadcast -> error: shapes (3, 4) and (3,) cannot be broadcast together
import mars.tensor as mt
a = mt.ones((3, 4))
b = mt.ones(3)
print(a + b)
