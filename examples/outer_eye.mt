# Outer products and identity matrices. A multiplication table is the outer product
# of 1..9 with itself. A Householder reflection H = I - 2 v v^T / (v . v) is built
# from eye and outer; it is symmetric, its own inverse, and maps v to -v.
import mars.tensor as mt

k = mt.arange(1, 10)
table = mt.outer(k, k)
print("multiplication table:", table.shape, table.dtype)
print(table)

n = 500
v = mt.cos(mt.linspace(0.0, 3.0, n, chunks=125)) + 0.5
H = mt.eye(n, chunks=125) - 2.0 * mt.outer(v, v) / mt.dot(v, v)
print("H:", H.shape, H.dtype)
print("top-left corner of H:")
print(H[:3, :3])
print("H is symmetric:", mt.all(H == H.T))
print("H @ H is the identity:", mt.abs(H @ H - mt.identity(n)).max() < 1e-12)
print("H @ v is -v:", mt.abs(H @ v + v).max() < 1e-12)
print("trace of H:", (H * mt.eye(n)).sum(), "(n - 2 =", n - 2, ")")

rank_one = mt.outer(mt.ones(4), mt.arange(3))
print("outer(ones(4), arange(3)) + eye(4, 3):")
print(rank_one + mt.eye(4, 3))
