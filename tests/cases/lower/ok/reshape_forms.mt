# reshape with a tuple, separate ints, and one -1 inferred; ravel flattens in C order; 0-d from one element
import mars.tensor as mt
x = mt.arange(12)
print(x.reshape(3, 4), x.reshape((2, -1)).shape, mt.reshape(x, (-1, 3)).shape)
print(mt.reshape(x, -1).shape, x.reshape(2, 2, -1).shape, x.reshape((1, 12, 1)).shape)
print(x.reshape(3, 4).T.ravel(), mt.ravel(x.reshape(4, 3)), x.reshape(4, 3)[:, 1].ravel())
print(mt.ones(1).reshape(()).shape, mt.tensor(7).reshape(1, 1), mt.zeros((0, 4)).reshape(-1, 2).shape)
