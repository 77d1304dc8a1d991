# Numerical integration by the trapezoid rule, written with slicing: the area under
# samples y of a function on an even grid of step h is h * sum((y[1:] + y[:-1]) / 2).
# Three integrals with known values: sin on [0, pi] is 2, exp on [0, 1] is e - 1,
# and 4 / (1 + x**2) on [0, 1] is pi.
import mars.tensor as mt

n = 20_001
pi = 3.141592653589793

x = mt.linspace(0.0, pi, n, chunks=5_000)
h = pi / (n - 1)
y = mt.sin(x)
print("integral of sin on [0, pi]:", h * ((y[1:] + y[:-1]) / 2).sum())

x = mt.linspace(0.0, 1.0, n, chunks=5_000)
h = 1.0 / (n - 1)
y = mt.exp(x)
print("integral of exp on [0, 1]:", h * ((y[1:] + y[:-1]) / 2).sum())

y = 4 / (1 + x ** 2)
estimate = h * ((y[1:] + y[:-1]) / 2).sum()
print("integral of 4 / (1 + x**2) on [0, 1]:", estimate)
print("within 1e-8 of pi:", mt.abs(estimate - pi) < 1e-8)
