# an indented line that is not a block's body -> error: unexpected indentation
import mars.tensor as mt
x = mt.ones(3)
    y = x + 1
print(x)
