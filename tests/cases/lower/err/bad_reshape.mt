# a reshape that changes the number of elements -> error: cannot reshape a tensor of size 12 into shape (5, -1)
import mars.tensor as mt
x = mt.arange(12)
print(x.reshape(5, -1))
