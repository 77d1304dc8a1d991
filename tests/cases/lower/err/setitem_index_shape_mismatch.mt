# values assigned through an integer index must broadcast to the indexed shape, as NumPy says -> error: shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape (2,)
import mars.tensor as mt
x = mt.arange(10)
x[[1, 2]] = [1, 2, 3]
print(x)
