# mt.linalg.svd with NumPy's default full_matrices=True of tall and wide matrices chunked several ways (the complete QR, then the SVD of the square R): s exactly, u (m, m) and vh (n, n) orthogonal, the reconstruction from the first min(m, n) columns; signs are the factorization's
import mars.tensor as mt
x = mt.arange(40, chunks=7).reshape((8, 5)) ** 1.5 % 7.0 + mt.arange(8).reshape((8, 1)) * 0.1
for a in [x.rechunk((3, 2)), x.T.rechunk(2)]:
    u, s, vh = mt.linalg.svd(a)
    m, n = a.shape
    k = min(m, n)
    print(u.shape, s.shape, vh.shape, s)
    print(mt.allclose((u[:, :k] * s) @ vh[:k], a), mt.allclose(u.T @ u, mt.eye(m)), mt.allclose(vh @ vh.T, mt.eye(n)))
