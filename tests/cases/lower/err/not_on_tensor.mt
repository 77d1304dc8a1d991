# `not` on a 5-element tensor -> error: The truth value of an array with more than one element is ambiguous; help: use `~`
import mars.tensor as mt
x = mt.arange(5)
print(not (x > 2))
