# Monte Carlo estimate of pi: draw points uniformly in the unit square and count the
# fraction that falls inside the quarter circle x*x + y*y <= 1; that fraction times
# four estimates pi. Two million points in eight chunks of 250_000.
import mars.tensor as mt

mt.random.seed(2024)
n = 2_000_000
x = mt.random.rand(n, chunks=250_000)
y = mt.random.rand(n, chunks=250_000)

inside = (x * x + y * y) <= 1.0
hits = inside.sum()
pi_estimate = 4 * hits / n

print("points:", n, "chunks:", x.nsplits)
print("inside the quarter circle:", hits.execute())
print("pi is about", pi_estimate.execute())
print("absolute error:", mt.abs(pi_estimate - 3.141592653589793))
