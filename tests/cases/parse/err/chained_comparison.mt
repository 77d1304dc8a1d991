# chained comparisons are rejected with a rewrite using &
import mars.tensor as mt
x = mt.arange(10)
inside = 2 < x < 7
print(inside)
