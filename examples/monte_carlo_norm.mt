# Monte Carlo estimate of pi as in Mars's README: draw points uniformly in the square
# [-1, 1]², take each point's distance from the origin with `mt.linalg.norm` along
# axis 1, and count the fraction inside the unit circle; times four, it estimates pi.
# Two million points in eight chunks of 250_000 rows.
import mars.tensor as mt

mt.random.seed(2024)
N = 2_000_000
a = mt.random.uniform(-1, 1, size=(N, 2), chunks=(250_000, 2))
distance = mt.linalg.norm(a, axis=1)
print((distance < 1).sum() * 4 / N)
print("absolute error below 0.01:", mt.abs((distance < 1).sum() * 4 / N - mt.pi) < 0.01)
