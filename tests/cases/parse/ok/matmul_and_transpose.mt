# @ and dot, .T and transpose, @ at the same level as *
import mars.tensor as mt
a = mt.random.rand(4, 3, chunks=2)
b = mt.random.rand(3, 4, chunks=2)
c = a @ b + mt.dot(a, b) * 2
d = a.T @ a.T.T - b @ b.transpose()
print(c, d, (a @ b).T)
