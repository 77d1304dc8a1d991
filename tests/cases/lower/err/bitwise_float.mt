# & on float operands -> error: `&` (bitwise_and) is not defined for float64
import mars.tensor as mt
x = mt.linspace(0, 1, 3)
print(x & 1)
