# rebinding a name: later uses see the new value, earlier results keep the old one
import mars.tensor as mt
x = mt.arange(4)
y = x * 10
x = mt.ones(2)
print(x, y)
x = x + 1
print(x)
