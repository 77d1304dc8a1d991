# A moving sum over a window of w samples, computed from cumulative sums: with C the
# cumulative sum of x preceded by a 0, the window sum ending at i is C[i + w] - C[i].
# The result is checked against the direct sum of w shifted slices. Integer data
# keeps the arithmetic exact.
import numpy as np

n = 1_000_000
w = 5
x = np.arange(n, chunks=200_000) % 7 + (np.arange(n, chunks=250_000) % 3) * 10

c = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(x)])
moving = c[w:] - c[:-w]
print("moving sums:", moving.shape, moving.dtype)
print("first ten:", moving[:10])
print("last five:", moving[-5:])
print("smallest, largest, mean:", moving.min(), moving.max(), moving.mean())

m = n - w + 1
direct = x[0:m] + x[1:m + 1] + x[2:m + 2] + x[3:m + 3] + x[4:m + 4]
print("matches the direct sum:", np.all(moving == direct))
