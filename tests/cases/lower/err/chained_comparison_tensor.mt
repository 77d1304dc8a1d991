# a chained comparison of a tensor needs the truth of its first comparison, which a tensor of several elements does not have -> error: The truth value of an array with more than one element is ambiguous
import mars.tensor as mt
x = mt.arange(10)
inside = 2 < x < 7
print(inside)
