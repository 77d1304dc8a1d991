# mt.linalg.svd_compressed (dask.array's randomized SVD: Gaussian test matrix, TSQR range, power iterations, svd_flip signs) of an exactly rank-3 200x30 matrix chunked two ways: s equals the exact SVD's top k within 1e-10, u @ diag(s) @ vh reconstructs, u and vh orthonormal, rows of vh summing >= 0, the same factors with another seed, power iterations and chunking, k below the rank
import mars.tensor as mt
import numpy as np
i = mt.arange(200, chunks=70) * 1.0
j = mt.arange(30, chunks=13) * 1.0
left = mt.stack([mt.sin(i * 0.37), mt.cos(i * 0.11), i % 7 - 3], axis=1)
right = mt.stack([mt.cos(j * 1.3), j % 5, mt.sqrt(j)])
a = (left @ right).rechunk((45, 7))
a0 = left @ right
u, s, vh = mt.linalg.svd_compressed(a, 3, seed=1)
s0 = mt.linalg.svd(a0, compute_uv=False)[:3]
print(u.shape, s.shape, vh.shape, mt.allclose(s, s0, rtol=1e-10, atol=0))
print(mt.allclose((u * s) @ vh, a0, rtol=0, atol=1e-10), mt.allclose(u.T @ u, mt.eye(3)), mt.allclose(vh @ vh.T, mt.eye(3)))
print(mt.all(vh.sum(axis=1) >= 0))
u2, s2, vh2 = mt.linalg.svd_compressed(a0, 3, n_power_iter=2, seed=7)
print(mt.allclose(s2, s0, rtol=1e-10, atol=0), mt.allclose(u2, u, atol=1e-9), mt.allclose(vh2, vh, atol=1e-9))
u3, s3, vh3 = mt.linalg.svd_compressed(a0.rechunk((200, 30)), 2)
print(s3.shape, mt.allclose(s3, s0[:2], rtol=1e-10, atol=0), mt.allclose(u3, u[:, :2], atol=1e-9))
print(s, s2)
