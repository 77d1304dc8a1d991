# matmul with uneven chunks: each output block sums its run of contracted block products in place (a tree sum only past combine_size); 1-D dot and outer
import mars.tensor as mt
a = mt.ones((5, 7), chunks=((2, 3), (3, 4)))
b = mt.ones((7, 4), chunks=((4, 3), (2, 2)))
print(a @ b)
v = mt.arange(7, chunks=2)
print(mt.dot(v, v), mt.outer(v, mt.ones(3, chunks=2)))
w = mt.ones((4, 9), chunks=(4, 1))
print(w @ w.T)
