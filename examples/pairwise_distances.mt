# Pairwise distances by broadcasting. x[:, None] - y[None, :] turns n points and m
# points into an (n, m) table of differences without a loop. First for numbers on a
# line, then for 2-D points: 1200 points on the unit circle against 900 points on the
# parabola y = x*x/2 - 1/2, with the nearest parabola point for each circle point.
# Last, the same table from inner products with `einsum`: |p - q|^2 = |p|^2 + |q|^2
# - 2 p.q, one block product instead of an (n, m, 2) table of differences.
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

# The same distances through einsum: squared norms per row, and all inner products.
sq_circle = mt.einsum("ij,ij->i", circle, circle)
sq_parabola = mt.einsum("ij,ij->i", parabola, parabola)
inner = mt.einsum("ik,jk->ij", circle, parabola)
sq = sq_circle[:, None] + sq_parabola[None, :] - 2.0 * inner
via_einsum = mt.sqrt(mt.maximum(sq, 0.0))
print("einsum distances agree:", mt.allclose(via_einsum, dist, atol=1e-9))
print("same nearest points:", bool((via_einsum.argmin(axis=1) == nearest).all()))
