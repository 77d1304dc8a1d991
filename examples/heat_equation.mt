# Explicit finite differences for the 1-D heat equation u_t = u_xx on [0, 1] with the
# ends held at 0, on a grid of 41 points in chunks of 10. Each step replaces the
# interior by u + r * (u[:-2] - 2 u[1:-1] + u[2:]); the step is spelled out six times
# because version 1 has no loops, and rebinding u keeps each line short.
import mars.tensor as mt

n = 41
x = mt.linspace(0.0, 1.0, n, chunks=10)
u = mt.sin(3.141592653589793 * x) + 0.5 * mt.sin(2 * 3.141592653589793 * x)
zero = mt.zeros(1)
r = 0.4

print("initial heat:", u.sum() / (n - 1), "peak", u.max())
u = mt.concatenate([zero, u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:]), zero])
u = mt.concatenate([zero, u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:]), zero])
u = mt.concatenate([zero, u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:]), zero])
u = mt.concatenate([zero, u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:]), zero])
u = mt.concatenate([zero, u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:]), zero])
u = mt.concatenate([zero, u[1:-1] + r * (u[:-2] - 2 * u[1:-1] + u[2:]), zero])
print("after 6 steps:", u.shape, u.dtype)
print("heat:", u.sum() / (n - 1), "peak", u.max(), "at x =", mt.where(u == u.max(), x, 0.0).sum())
print("ends stay at 0:", u[0], u[-1])
print("samples at x = 0, 0.25, 0.5, 0.75, 1:", u[::10])
