# a `while` on an empty tensor -> error: The truth value of an empty array is ambiguous
import mars.tensor as mt
x = mt.ones(0)
while x:
    x = x / 2
