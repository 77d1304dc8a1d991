# if is not in version 1; the help points at mt.where
import mars.tensor as mt
x = mt.ones(3)
if x.sum() > 1:
    print(x)
