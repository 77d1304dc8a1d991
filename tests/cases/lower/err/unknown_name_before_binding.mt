# a name used on the line before it is bound -> error: unknown name `y`
import mars.tensor as mt
x = y + 1
y = mt.ones(2)
print(x)
