# Pairwise distances by broadcasting. x[:, None] - y[None, :] turns n points and m
# points into an (n, m) table of differences without a loop. First for numbers on a
# line, then for 2-D points: 1200 points on the unit circle against 900 points on the
# parabola y = x*x/2 - 1/2, with the nearest parabola point for each circle point.
import mars.tensor as mt

a = mt.arange(5)
b = mt.tensor([0.5, 2.0, 4.5])
print("a[:, None] - b[None, :] =")
print(a[:, None] - b[None, :])

n = 1200
m = 900
angle = mt.linspace(0.0, 6.283185307179586, n, endpoint=False, chunks=300)
circle = mt.stack([mt.cos(angle), mt.sin(angle)], axis=1)
u = mt.linspace(-1.5, 1.5, m, chunks=300)
parabola = mt.stack([u, 0.5 * u * u - 0.5], axis=1)

diff = circle[:, None] - parabola[None, :]
dist = mt.sqrt((diff ** 2).sum(axis=2))
print("differences:", diff.shape, "distances:", dist.shape)

nearest = dist.argmin(axis=1)
closest = dist.min(axis=1)
print("nearest parabola point of the first circle points:", nearest[:8])
print("closest approach:", closest.min(), "farthest nearest neighbour:", closest.max())
print("circle point farthest from the parabola: number", closest.argmax(), "of", n)
print("mean distance over all pairs:", dist.mean())
