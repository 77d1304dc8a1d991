# mt.linalg.qr's modes: 'complete' of a tall matrix (square orthogonal q, r with zero rows below n) chunked several ways, 'full' (NumPy's deprecated alias of 'reduced'), 'complete' and 'r' of a wide matrix, an int matrix; signs are the factorization's, so q through q @ r, q.T @ q, q @ q.T and r through |r|
import mars.tensor as mt
x = mt.arange(40, chunks=7).reshape((8, 5)) ** 1.5 % 7.0 + mt.arange(8).reshape((8, 1)) * 0.1
for chunks in [(8, 5), (3, 2), (2, 5)]:
    a = x.rechunk(chunks)
    q, r = mt.linalg.qr(a, mode='complete')
    print(q.shape, r.shape, mt.allclose(q @ r, a), mt.allclose(q.T @ q, mt.eye(8)), mt.allclose(q @ q.T, mt.eye(8)), mt.all(mt.tril(r, -1) == 0))
    print(mt.abs(r))
    q2, r2 = mt.linalg.qr(a, mode='full')
    print(q2.shape, r2.shape, mt.allclose(q2 @ r2, a), mt.allclose(mt.abs(r2), mt.abs(r[:5])))
w = x[:3]
q, r = mt.linalg.qr(w, mode='complete')
print(q.shape, r.shape, mt.allclose(q @ r, w), mt.allclose(q.T @ q, mt.eye(3)))
print(mt.abs(r))
print(mt.abs(mt.linalg.qr(w, mode='r')))
i = mt.arange(12, chunks=5).reshape((6, 2)) % 5
q, r = mt.linalg.qr(i, mode='complete')
print(q.dtype, r.dtype, q.shape, mt.abs(r), mt.allclose(q @ r, i))
q, r = mt.linalg.qr(x.astype(mt.float32), mode='complete')
print(q.dtype, r.dtype, mt.allclose(q @ r, x, atol=1e-4))
