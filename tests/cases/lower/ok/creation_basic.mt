# ones, zeros, full, empty (as zeros), identity and eye with their shapes and default dtypes
import mars.tensor as mt
print(mt.ones(3), mt.ones((2, 2)), mt.zeros((2, 3)).shape)
print(mt.full((2, 2), 7), mt.full((2,), 2.5), mt.full(3, True))
print(mt.empty((2, 2)), mt.empty(3).dtype)
print(mt.identity(3))
print(mt.eye(3, 4, k=1))
print(mt.eye(3, k=-1, dtype=int))
print(mt.eye(2, 3))
