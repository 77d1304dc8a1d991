# Evaluating a polynomial on a grid from linspace: the degree-8 Taylor polynomial
# of cos around 0, evaluated by Horner's rule, compared with cos itself. The
# approximation is excellent near 0 and degrades towards the ends of [-4, 4].
import mars.tensor as mt

x = mt.linspace(-4.0, 4.0, 400_001, chunks=100_000)
x2 = x * x
p = 1.0 + x2 * (-1.0 / 2 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320))))
err = mt.abs(p - mt.cos(x))

print("grid:", x.shape, x.dtype)
print("p at -4, -2, 0, 2, 4:", p[::100_000])
print("cos at the same points:", mt.cos(x[::100_000]))
print("max error on [-1, 1] below 1e-6:", mt.max(mt.where(mt.abs(x) <= 1.0, err, 0.0)) < 1e-6)
print("max error on [-4, 4]:", err.max())
print("errors at -4 and 4:", err[0], err[-1])
