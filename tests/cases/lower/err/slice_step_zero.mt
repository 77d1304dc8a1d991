# a slice with step 0 -> error: slice step cannot be zero
import mars.tensor as mt
x = mt.arange(5)
print(x[::0])
