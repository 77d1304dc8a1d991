# an operator without its right operand
import mars.tensor as mt
x = mt.ones(3) +
print(x)
