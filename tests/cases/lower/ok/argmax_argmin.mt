# argmax/argmin: axis=None gives the flat index, an axis gives indices along it, ties pick the first
import mars.tensor as mt
x = mt.tensor([[3, 9, 9], [9, 1, 1]])
print(x.argmax(), x.argmin(), mt.argmax(x, axis=0), mt.argmin(x, axis=1))
print(x.argmax(axis=-1), mt.argmax(x.T), mt.argmin(mt.tensor([2.5, -1.0, -1.0])))
print(x.argmax(axis=1, keepdims=True))
