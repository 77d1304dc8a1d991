# mt.linalg.solve_triangular (Mars's signature, SciPy's semantics): upper (the default) and lower triangles of a full matrix (the other triangle is never read) chunked across the matrix, 1-d and 2-d b, lower given positionally, ints computed in float64, float32 kept, and the solution checked against the triangle
import mars.tensor as mt
a = mt.tensor([[3.0, 0.5, -1.0, 2.0], [1.0, 2.0, 0.25, -3.0], [4.0, -1.5, 5.0, 1.0], [2.0, 1.0, 3.0, -2.5]], chunks=3)
b = mt.tensor([1.0, -2.0, 3.5, 0.5], chunks=2)
print(mt.linalg.solve_triangular(a, b))
print(mt.linalg.solve_triangular(a, b, lower=True))
print(mt.linalg.solve_triangular(a.rechunk(1), mt.arange(8, chunks=3).reshape((4, 2)), True))
print(mt.linalg.solve_triangular(a, mt.arange(8).reshape((4, 2)) * 0.5 - 1))
x = mt.linalg.solve_triangular(mt.tensor([[2, 0], [1, 4]]), mt.tensor([2, 3]), lower=True)
print(x, x.dtype)
f = a.astype(mt.float32)
print(mt.linalg.solve_triangular(f, b.astype(mt.float32)).dtype, mt.linalg.solve_triangular(f, b).dtype)
print(mt.allclose(mt.tril(a) @ mt.linalg.solve_triangular(a, b, lower=True), b), mt.allclose(mt.triu(a) @ mt.linalg.solve_triangular(a, b), b))
