# `for` over range, lists, tuples, strings and a tensor's first axis (rows are
# views: an in-place update of a row changes the tensor), enumerate and zip,
# `while` with a counter, `break`, `continue`, `else` clauses, `if`/`elif`/`else`,
# conditional expressions, `in`/`not in`/`is`, assert, and an iterative update of a
# tensor unrolled over a known number of steps.
import mars.tensor as mt

total = 0
for i in range(10):
    if i % 3 == 0:
        continue
    if i > 7:
        break
    total += i
else:
    print("not reached")
print(total)

for name in ("a", "bc"):
    for ch in name:
        print(name, ch)

for i in range(3):
    pass
else:
    print("loop finished", i)

x = mt.arange(12.0, chunk_size=5).reshape(3, 4)
for row in x:
    row *= 2
print(x)
for i, row in enumerate(x, start=1):
    print(i, row.sum())
for a, b in zip([1, 2, 3], x):
    print(a, (a * b).max())
print(list(range(2, 11, 3)), tuple(range(3, 0, -1)), list(enumerate("ab")))
print(list(zip((1, 2), [3, 4, 5])), range(5), len([1, 2]))

# power iteration, 20 steps
m = mt.tensor([[2.0, 1.0], [1.0, 3.0]], chunk_size=1)
v = mt.ones(2)
for step in range(20):
    w = m @ v
    v = w / mt.sqrt((w * w).sum())
print(v)

n = 1
steps = 0
while n < 1000:
    n *= 3
    steps += 1
print(n, steps)
k = 5
while k > 0:
    k -= 2
    if k == 1:
        break
else:
    print("no break")
print(k)

shape = x.shape
kind = "wide" if shape[1] > shape[0] else "tall"
print(kind, 3 in shape, 5 not in shape, None is None, x.dtype is not None)
assert shape == (3, 4), "shape"
cells = 0
for r in range(shape[0]):
    for c in range(shape[1]):
        if r == c:
            continue
        cells += 1
print(cells)

# comprehensions: filters, nested clauses, a generator expression, tensors as items,
# and loop names that do not leak
squares = [i * i for i in range(6) if i % 2 == 0]
print(squares, sum(v for v in squares), [(a, b) for a in range(2) for b in "xy"])
cols = [x[:, j].sum() for j in range(x.shape[1])]
print(mt.stack(cols))
i = "kept"
print([i for i in range(2)], i)
