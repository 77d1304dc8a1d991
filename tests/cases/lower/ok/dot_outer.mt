# dot follows matmul's rules for 1-D and 2-D operands; outer flattens its inputs
import mars.tensor as mt
a = mt.arange(6).reshape(2, 3)
v = mt.tensor([1.0, 2.0, 3.0])
print(mt.dot(v, v), mt.dot(a, v), mt.dot(v[:2], a), mt.dot(a, a.T))
print(a.dot(v), v.dot(v).shape)
print(mt.outer(v, mt.arange(2)), mt.outer(a, mt.ones(2)).shape, mt.outer(2 * v, v).dtype)
