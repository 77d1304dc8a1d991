# einsum's operand-list form with a label past 51 -> error: subscript is not within the valid range [0, 52)
import mars.tensor as mt
a = mt.ones((2, 3))
print(mt.einsum(a, [0, 1], a, [52, 1], [0, 52]))
