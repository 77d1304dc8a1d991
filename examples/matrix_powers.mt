# Powers of a matrix by repeated multiplication. First the Fibonacci matrix, whose
# k-th power holds Fibonacci numbers (exact int64 arithmetic); then the transition
# matrix P of a lazy random walk on a path of 400 states, where row i of P**k is the
# distribution after k steps from state i. Squaring gives P**2, P**4, P**8.
import mars.tensor as mt

F = mt.tensor([[1, 1], [1, 0]])
F2 = F @ F
F4 = F2 @ F2
F8 = F4 @ F4
print("F**10 =")
print(F8 @ F2)
print("F**3 =")
print(F @ F @ F)

n = 400
state = mt.arange(n, chunks=100)
first = (state == 0).astype(mt.float64)
last = (state == n - 1).astype(mt.float64)
P = 0.5 * mt.eye(n, chunks=100) + 0.25 * (mt.eye(n, k=1, chunks=100) + mt.eye(n, k=-1, chunks=100))
P += 0.25 * (mt.outer(first, first) + mt.outer(last, last))
print("P:", P.shape, P.dtype, "row sums all 1:", mt.all(P.sum(axis=1) == 1.0))

P2 = P @ P
P4 = P2 @ P2
P8 = P4 @ P4
P3 = P @ P @ P
print("P @ P @ P equals P2 @ P:", mt.abs(P3 - P2 @ P).max() < 1e-15)
print("P**8 rows still sum to 1:", mt.abs(P8.sum(axis=1) - 1.0).max() < 1e-12)

start = (state == n // 2).astype(mt.float64)
after8 = start @ P8
print("distribution after 8 steps from the middle state:")
print(after8[n // 2 - 4:n // 2 + 5])
print("trace of P**8:", mt.sum(P8 * mt.eye(n)))
