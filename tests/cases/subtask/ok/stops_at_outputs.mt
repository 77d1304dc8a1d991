# a printed tensor ends its group even though only one chunk reads it: a is printed, so a.sum()'s map does not absorb it
import mars.tensor as mt
a = mt.arange(4, chunks=2) + 1
print(a)
print((a * 2).sum())
