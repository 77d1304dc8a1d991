# TSQR qr, svd and lstsq of tall matrices chunked along rows (and columns, rechunked), several chunkings including blocks shorter than the matrix is wide; wide matrices through qr of the leading square block and svd of the transpose; signs are LAPACK's choice, so q/u/v are checked through reconstructions and |r|, s exactly; norm ord 2/-2/'nuc'
import mars.tensor as mt
x = mt.arange(90, chunks=13).reshape((30, 3)) ** 1.5 % 7.0 + mt.arange(30).reshape((30, 1)) * 0.1
for chunks in [(30, 3), (7, 3), (2, 2), (11, 1)]:
    a = x.rechunk(chunks)
    q, r = mt.linalg.qr(a)
    print(q.shape, r.shape, mt.allclose(q @ r, a), mt.allclose(q.T @ q, mt.eye(3)), mt.all(mt.tril(r, -1) == 0))
    print(mt.abs(r))
    print(mt.abs(mt.linalg.qr(a, mode='r')))
    u, s, vh = mt.linalg.svd(a, full_matrices=False)
    print(s, mt.linalg.svd(a, compute_uv=False))
    print(u.shape, vh.shape, mt.allclose((u * s) @ vh, a), mt.allclose(u.T @ u, mt.eye(3)), mt.allclose(vh @ vh.T, mt.eye(3)))
    y = a @ mt.tensor([1.0, -2.0, 0.5]) + mt.sin(mt.arange(30) * 1.0)
    coef, res, rank, sv = mt.linalg.lstsq(a, y)
    print(coef, res, rank, sv)
    coef, res, rank, sv = mt.linalg.lstsq(a, mt.stack([y, y * 2 + 1], axis=1), rcond=None)
    print(coef, res, rank)
    print(mt.linalg.norm(a, 2), mt.linalg.norm(a, -2), mt.linalg.norm(a, 'nuc'), mt.linalg.norm(a, ord=2, axis=(1, 0), keepdims=True))
w = x[:4].T
q, r = mt.linalg.qr(w)
print(q.shape, r.shape, mt.allclose(q @ r, w), mt.abs(r))
u, s, vh = mt.linalg.svd(w, full_matrices=False)
print(s, u.shape, vh.shape, mt.allclose((u * s) @ vh, w))
coef, res, rank, sv = mt.linalg.lstsq(w, mt.tensor([1.0, 2.0, 3.0]))
print(coef, res, rank, sv)
sq = x[:3]
u, s, vh = mt.linalg.svd(sq)
print(s, mt.allclose((u * s) @ vh, sq))
ones = mt.ones((6, 2), chunks=2)
coef, res, rank, sv = mt.linalg.lstsq(ones, mt.arange(6) * 1.0)
print(coef, res, rank, sv[0])
i = mt.arange(12, chunks=5).reshape((6, 2)) % 5
q, r = mt.linalg.qr(i)
print(q.dtype, mt.abs(r), mt.allclose(q @ r, i))
