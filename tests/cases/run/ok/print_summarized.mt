# tensors of more than 1000 elements print summarized, from the corners alone, as NumPy prints them
import mars.tensor as mt
# 1-d: just below, at and just above the threshold; chunks that split the edges
print(mt.arange(1000, chunks=7))
print(mt.arange(1001, chunks=2))
print(mt.arange(1001.0, chunks=1))
print(mt.ones(200000000))
# column widths come from the shown values only: the hidden 1e10 changes nothing
x = mt.where(mt.arange(3000, chunks=100) == 1500, 1e10, mt.arange(3000, chunks=100) / 7)
print(x)
print(mt.where(mt.arange(2000) == 7, -123456789, mt.arange(2000, chunks=300)))
print(mt.arange(2000, chunks=300) % 3 == 0)
print((mt.arange(2000, chunks=300) * 0.5).astype(mt.float32))
# 2-d: a short axis shown whole, a long one summarized; both summarized
print(mt.arange(2002, chunks=500).reshape((2, 1001)))
print(mt.arange(1001 * 2, chunks=(300,)).reshape((1001, 2)))
print(mt.ones((40, 30), chunks=(7, 11)) * mt.arange(30))
print(mt.arange(1000 * 1000, chunks=100000).reshape((1000, 1000)) - 5e5)
# 3-d, axes below, at and above the edge count; 6^4 elements: summarized, nothing elided
print(mt.arange(7 * 2 * 100, chunks=33).reshape((7, 2, 100)))
print(mt.arange(10 * 10 * 11, chunks=77).reshape((10, 10, 11)) % 4 > 1)
print(mt.arange(6 * 6 * 6 * 6).reshape((6, 6, 6, 6)).sum(axis=3))
print(mt.arange(6 * 6 * 6 * 6, chunks=100).reshape((6, 6, 6, 6)))
# the same tensor printed twice, beside text
y = mt.linspace(0, 1, 5000, chunks=999)
print("y:", y, y[::-1], sep="\n")
