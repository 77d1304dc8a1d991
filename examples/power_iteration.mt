# Power iteration and a few steps of gradient descent, written with Python structure:
# a helper function, a loop over a known number of steps, unpacking and an early
# exit decided on a Python value. marsc unrolls the loops while compiling and runs
# the whole program as one fused, chunked graph.
import mars.tensor as mt


def normalize(v):
    return v / mt.sqrt((v * v).sum())


def power_iteration(a, steps=50):
    v = normalize(mt.ones(a.shape[1], chunk_size=250))
    for _ in range(steps):
        v = normalize(a @ v)
    return v, (v * (a @ v)).sum()


n = 1000
i = mt.arange(n, chunk_size=250)
# A symmetric matrix with a dominant eigenvalue: 1 + (i == j) * 0.5 * (i + 1) / n
a = mt.ones((n, n), chunk_size=250) + mt.eye(n, chunk_size=250) * (0.5 * (i + 1) / n)
v, eigenvalue = power_iteration(a)
print("dominant eigenvalue:", eigenvalue)
print("eigenvector head:", v[:4])

# Least squares by gradient descent on a small problem, 200 steps.
x = mt.linspace(0, 1, 200, chunk_size=50)
y = 3.0 * x - 0.5
w, b = 0.0, 0.0
lr = 0.5
for step in range(200):
    err = w * x + b - y
    w, b = w - lr * (err * x).mean(), b - lr * err.mean()
    if step in (0, 199):
        print("step", step, "loss", (err * err).mean())
print("w, b =", w, b)
