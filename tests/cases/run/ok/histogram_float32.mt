# histogram of float32 data with equal bins: NumPy keeps the edges in float32 (computed in float32 from the data's extremes, or in float64 from a given range, then rounded) and places values with float32 arithmetic (divided in float64 when the range is given); counts and edges equal NumPy's bit for bit
import mars.tensor as mt
s = mt.linspace(0, 1, 101, chunk_size=23).astype(mt.float32)
for bins in [10, 7, 3, 100]:
    print(mt.histogram(s, bins=bins, range=(0, 1))[0])
    print(mt.histogram(s, bins=bins, range=(0.1, 0.9))[0])
    h, e = mt.histogram(s * 3 - 1, bins=bins)
    print(h, e.dtype)
print(mt.histogram(s * 3 - 1, bins=10))
print(mt.histogram(s, bins=4, range=(0.1000000015, 0.2)))
print(mt.histogram(mt.full(4, 0.3, dtype=mt.float32), bins=3))
print(mt.histogram(mt.zeros(0, dtype=mt.float32), bins=3))
print(mt.histogram(s, bins=3, range=(0.5, 0.5)))
print(mt.histogram(s, bins=5, density=True))
print(mt.histogram_bin_edges(s * 7.3 + 0.01, bins=9))
r = mt.arange(1000, chunk_size=300).astype(mt.float32) * 0.001 + 0.1
print(mt.histogram(r, bins=13)[0], mt.histogram(r, bins=17, range=(0.2, 0.95))[0])
