# an error before the first value the program needs is reported before anything runs -> error: cannot find `undefined` in this scope
import mars.tensor as mt
x = mt.ones(4)
print("this is not printed")
y = undefined + 1
while x.sum() > 1:
    x = x / 2
