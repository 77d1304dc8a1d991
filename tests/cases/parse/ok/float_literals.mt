# every float form: 1.5, .5, 5., exponents, underscores
import mars.tensor as mt
f = [1.5, .5, 5., 1e-3, 1E3, 2.5e+2, 1_0.5, 1.e2, .5e-1, 1_000.000_1]
print(mt.tensor(f), 1e308, 0.0)
