# a reshape to a shape of a different size -> error: cannot reshape a tensor of size 6 into shape (4, 2)
import mars.tensor as mt
print(mt.reshape(mt.ones((2, 3)), (4, 2)))
