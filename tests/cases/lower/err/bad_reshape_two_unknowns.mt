# more than one -1 in a reshape -> error: can only specify one unknown dimension (-1)
import mars.tensor as mt
x = mt.arange(12)
print(x.reshape(-1, -1))
