# mt.linalg.lu and solve_triangular over stacked matrices (..., M, M), as SciPy 1.16 batches them, chunked along the leading axes and across the matrices: lu's p, l, u per matrix (a = p @ l @ u), solve_triangular with a 1-D b for every matrix, a (..., M, K) b, leading axes broadcast both ways (a 2-D a against a stack of b, (2, 1) against (3,)), ints computed in float64, float32 kept
import mars.tensor as mt
base = mt.arange(48, chunks=7).reshape((3, 4, 4)) ** 1.2 % 5.0 - 2.0
a = (base + 1.5 * mt.eye(4)).rechunk((2, 3, 2))
p, l, u = mt.linalg.lu(a)
print(p)
print(l)
print(u)
print(mt.allclose(mt.einsum("...ij,...jk,...kl->...il", p, l, u), a), p.shape, l.dtype)
p, l, u = mt.linalg.lu(mt.tensor([[[1, 2], [3, 4]], [[0, 1], [1, 0]]], chunks=1))
print(p, l, u, p.dtype)
b = mt.arange(4) * 0.5 - 1
print(mt.linalg.solve_triangular(a, b))
print(mt.linalg.solve_triangular(a, b, lower=True))
c = mt.arange(24, chunks=5).reshape((3, 4, 2)) % 3 - 1.0
x = mt.linalg.solve_triangular(a, c, lower=True)
print(x)
print(mt.allclose(mt.einsum("...ij,...jk->...ik", mt.tril(a[1]), x[1]), c[1]))
y = mt.linalg.solve_triangular(a[0], c)
print(y.shape, mt.allclose(mt.einsum("ij,bjk->bik", mt.triu(a[0]), y), c))
w = mt.linalg.solve_triangular(a[:2].reshape((2, 1, 4, 4)), c)
print(w.shape, mt.allclose(w[1, 2], mt.linalg.solve_triangular(a[1], c[2])))
i = mt.linalg.solve_triangular(mt.tensor([[[2, 0], [1, 4]], [[1, 0], [3, 5]]]), mt.tensor([2, 3]), lower=True)
print(i, i.dtype)
f = a.astype(mt.float32)
print(mt.linalg.lu(f)[2].dtype, mt.linalg.solve_triangular(f, b.astype(mt.float32)).dtype, mt.linalg.solve_triangular(f, b).dtype)
