# `.item()` of a tensor of several elements -> error: can only convert an array of size 1 to a Python scalar
import mars.tensor as mt
x = mt.arange(4)
print(x.item())
