# Principal component analysis of a tall matrix with mt.linalg.svd: 100,000
# observations of 4 features, two of which are (nearly) combinations of the others.
# The centred data's thin SVD (TSQR over row chunks, then the SVD of a 4 x 4 R)
# gives the explained variance of each component; the data are deterministic, so
# NumPy can check the output. Singular vectors' signs are the factorization's
# choice, so the example prints only sign-free quantities.
import mars.tensor as mt

n = 100_000
t = mt.linspace(0.0, 10.0, n, chunks=20_000)
f1 = mt.sin(t)
f2 = mt.cos(0.7 * t)
f3 = 2.0 * f1 - f2 + 0.01 * mt.sin(113.0 * t)
f4 = 0.5 * f2 + 0.001 * mt.cos(71.0 * t)
X = mt.stack([f1, f2, f3, f4], axis=1)

centred = X - X.mean(axis=0)
u, s, vh = mt.linalg.svd(centred, full_matrices=False)
variance = s * s / (n - 1)
print("singular values:", s)
print("explained variance ratio:", variance / variance.sum())
print("two components explain more than 99.9%:", variance[:2].sum() / variance.sum() > 0.999)

# The components are orthonormal, and the SVD reconstructs the data.
print("orthonormal components:", mt.allclose(vh @ vh.T, mt.eye(4)))
print("reconstruction error below 1e-9:", mt.abs((u * s) @ vh - centred).max() < 1e-9)

# Scores on the first two components, up to sign: their variances are the first two
# explained variances.
scores = centred @ vh[:2].T
print("score variances:", scores.var(axis=0, ddof=1))
print("loadings of the first component (absolute):", mt.abs(vh[0]))
