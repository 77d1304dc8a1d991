# an `if` on a tensor's value needs staged execution -> error: not supported yet: `if` on a tensor's value; help: mt.where
import mars.tensor as mt
x = mt.ones(3)
if x.sum() > 1:
    print(x)
