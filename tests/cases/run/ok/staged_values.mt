# staged execution: conditions, loop bounds and Python values computed from tensor values
import mars.tensor as mt

# Newton's square root, until converged (a `while` on a 0-d tensor)
a = mt.arange(1.0, 9.0, chunks=3)
x = mt.ones(8, chunks=3)
steps = 0
while mt.abs(x * x - a).max() > 1e-12:
    x = (x + a / x) / 2
    steps += 1
print(steps, x)

# a Python float from a tensor, then Python arithmetic on it
err = float(mt.abs(x * x - a).max())
print(err < 1e-12, err * 0 == 0.0)
total = x.sum().item()
print(round(total, 6), int(a.sum()), bool(a.min() > 0))

# if / elif / else on tensor values
for shift in [-10.0, -4.5, 10.0]:
    s = (a + shift).sum()
    if s > 0:
        print(shift, "positive", s)
    elif s == 0:
        print(shift, "zero")
    else:
        print(shift, "negative", s)

# a loop bound from a tensor's value
n = int(mt.arange(5).sum())
acc = mt.zeros(3)
for i in range(n):
    acc += i
print(n, acc)

# tolist and iterating its Python values
rows = mt.arange(6).reshape(2, 3).tolist()
print(rows, [sum(r) for r in rows])

# break out of a staged while; in-place updates across stages
v = mt.arange(4.0)
count = 0
while True:
    v *= 2
    count += 1
    if v.max() > 100:
        break
print(count, v)

# a function whose loop runs in stages
def halve_until(t, limit):
    k = 0
    while t.sum() > limit:
        t = t / 2
        k += 1
    return t, k

h, k = halve_until(mt.full(4, 64.0, chunks=2), 1.0)
print(k, h)
