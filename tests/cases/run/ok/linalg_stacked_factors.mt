# qr (modes 'reduced', 'complete', 'r', the deprecated 'full') and svd with vectors (full_matrices True and False) of stacks (..., M, N), tall, wide and square, chunked along the leading axes and across the matrices; pinv and matrix_rank of stacks and of matrices (tolerances, rank-deficient and zero matrices, vectors); signs are the factorization's, so q, u and vh through reconstructions and orthogonality, r through |r|
import mars.tensor as mt
b = (mt.arange(120, chunks=7).reshape((2, 3, 5, 4)) ** 1.3 % 7.0 + mt.eye(5, 4) * 3).rechunk((1, 2, 3, 2))
for x in [b, mt.swapaxes(b, -1, -2), b[..., :4, :]]:
    q, r = mt.linalg.qr(x)
    k = q.shape[-1]
    print(q.shape, r.shape, mt.allclose(mt.einsum('...ij,...jk->...ik', q, r), x), mt.allclose(mt.einsum('...ji,...jk->...ik', q, q), mt.eye(k)))
    print(mt.abs(r))
    qc, rc = mt.linalg.qr(x, mode='complete')
    m = qc.shape[-1]
    print(qc.shape, rc.shape, mt.allclose(mt.einsum('...ij,...jk->...ik', qc, rc), x), mt.allclose(mt.einsum('...ji,...jk->...ik', qc, qc), mt.eye(m)), mt.allclose(mt.abs(rc[..., :k, :]), mt.abs(r)))
    print(mt.allclose(mt.abs(mt.linalg.qr(x, mode='r')), mt.abs(r)), mt.linalg.qr(x, mode='full')[1].shape)
    u, s, vh = mt.linalg.svd(x, full_matrices=False)
    print(u.shape, s.shape, vh.shape, mt.allclose(mt.einsum('...ij,...j,...jk->...ik', u, s, vh), x))
    print(s)
    uf, sf, vhf = mt.linalg.svd(x)
    print(uf.shape, sf.shape, vhf.shape, mt.allclose(sf, s), mt.allclose(mt.einsum('...ij,...j,...jk->...ik', uf[..., :k], sf, vhf[..., :k, :]), x))
    print(mt.allclose(mt.einsum('...ji,...jk->...ik', uf, uf), mt.eye(uf.shape[-1])), mt.allclose(mt.einsum('...ij,...kj->...ik', vhf, vhf), mt.eye(vhf.shape[-1])))
    p = mt.linalg.pinv(x)
    print(p.shape, mt.allclose(mt.einsum('...ij,...jk,...kl->...il', x, p, x), x))
    print(mt.rint(p * 1e8) / 1e8 + 0.0)
    print(mt.linalg.matrix_rank(x))
c = mt.stack([mt.ones((3, 3)), mt.eye(3), mt.zeros((3, 3)), mt.diag(mt.tensor([1.0, 1e-3, 1e-20]))])
print(mt.linalg.matrix_rank(c), mt.linalg.matrix_rank(c, tol=0.01), mt.linalg.matrix_rank(c, rtol=1e-2), mt.linalg.matrix_rank(c[1]))
print(mt.linalg.matrix_rank(mt.ones(3)), mt.linalg.matrix_rank(mt.zeros(3)), mt.linalg.matrix_rank(mt.arange(6).reshape((2, 3))))
print(mt.rint(mt.linalg.pinv(c) * 1e8) / 1e8 + 0.0)
print(mt.rint(mt.linalg.pinv(c, rtol=None) * 1e8) / 1e8 + 0.0, mt.rint(mt.linalg.pinv(c, rcond=1e-2)[3] * 1e8) / 1e8 + 0.0)
w = mt.arange(15, chunks=4).reshape((3, 5)) ** 1.1 % 4.0
print(mt.rint(mt.linalg.pinv(w) * 1e8) / 1e8 + 0.0)
print(mt.rint(mt.linalg.pinv(w.T) * 1e8) / 1e8 + 0.0)
f = b.astype(mt.float32)
q, r = mt.linalg.qr(f)
u, s, vh = mt.linalg.svd(f)
print(q.dtype, r.dtype, u.dtype, s.dtype, vh.dtype, mt.linalg.pinv(f).dtype, mt.linalg.matrix_rank(f))
i = mt.arange(24, chunks=5).reshape((2, 4, 3)) % 5
print(mt.abs(mt.linalg.qr(i, mode='r')), mt.linalg.svd(i)[1], mt.linalg.matrix_rank(i))
