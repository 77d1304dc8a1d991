# all six comparisons, each unchained, combined with & and |
import mars.tensor as mt
x = mt.linspace(0, 1, 11)
lo = x < 0.2
le = x <= 0.2
hi = x > 0.8
ge = x >= 0.8
eq = x == 0.5
ne = x != 0.5
band = (x > 0.1) & (x < 0.9) | eq
print(lo, le, hi, ge, eq, ne, band)
