# tensors are immutable: assigning to an element is an error
import mars.tensor as mt
a = mt.zeros(5)
a[0] = 1
print(a)
