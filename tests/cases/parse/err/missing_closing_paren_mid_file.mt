# a call missing its `)` before more text on the same line
import mars.tensor as mt
x = mt.ones(3 y = 2
print(x)
