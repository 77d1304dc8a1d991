# The normal equations of a linear model y ~ X b: the Gram matrix X.T @ X and the
# moment vector X.T @ y, from which least squares finds b by solving
# (X.T @ X) b = X.T @ y. X has an intercept column and two features of a
# deterministic signal; y is a known combination of them plus a wiggle.
import mars.tensor as mt

n = 100_000
t = mt.linspace(0.0, 1.0, n, chunks=25_000)
x1 = t
x2 = mt.cos(6.0 * t)
X = mt.stack([mt.ones(n, chunks=25_000), x1, x2], axis=1)
y = 3.0 + 2.0 * x1 - 0.5 * x2 + 0.1 * mt.sin(40.0 * t)

gram = X.T @ X
moments = X.T @ y
print("X:", X.shape, X.dtype, "y:", y.shape)
print("Gram matrix X.T @ X:")
print(gram)
print("moments X.T @ y:")
print(moments)
print("Gram matrix is symmetric:", (gram == gram.T).all())

# The simple regression of y on x1 alone has a closed form in a few sums.
sx = x1.sum()
sy = y.sum()
sxx = (x1 * x1).sum()
sxy = (x1 * y).sum()
slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
intercept = (sy - slope * sx) / n
print("y on x1 alone: slope", slope, "intercept", intercept)
