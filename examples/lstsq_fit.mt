# Least squares with mt.linalg.lstsq: a plane z ~ c0 + c1 x + c2 y fitted to
# 200,000 noisy samples. The design matrix is tall and skinny (200,000 x 3, in row
# chunks), so lstsq runs through TSQR and the SVD of its small R factor. The
# "noise" is a deterministic wiggle, so NumPy can check every printed digit.
import mars.tensor as mt

n = 200_000
t = mt.linspace(0.0, 1.0, n, chunks=50_000)
x = mt.cos(3.0 * t)
y = t * t
noise = 0.05 * mt.sin(997.0 * t)
z = 1.5 - 2.0 * x + 0.75 * y + noise

A = mt.stack([mt.ones(n, chunks=50_000), x, y], axis=1)
coef, residuals, rank, s = mt.linalg.lstsq(A, z)
print("design matrix:", A.shape, "rank", rank)
print("fitted coefficients:", coef)
print("true coefficients:   [ 1.5  -2.    0.75]")
print("sum of squared residuals:", residuals)
print("singular values:", s)

# The same fit from a QR factorization: solve R c = Q.T z.
q, r = mt.linalg.qr(A)
via_qr = mt.linalg.solve(r, q.T @ z)
print("QR agrees with lstsq:", mt.allclose(via_qr, coef))

# Fitting two right-hand sides at once: the plane and the noise alone.
both = mt.stack([z, noise], axis=1)
coef2, residuals2, _, _ = mt.linalg.lstsq(A, both)
print("coefficients of the plane and of the noise alone:")
print(coef2)
print("residuals per column:", residuals2)
