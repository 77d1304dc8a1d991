# creation functions, each chunk placing itself by its offset: ones, zeros, full, arange (int, float, negative step), linspace, eye with k, identity, literals
import mars.tensor as mt
print(mt.ones((3, 5), chunks=2), mt.zeros(4, dtype=mt.int32, chunks=3), mt.full((2, 3), 7, chunks=(1, 2)))
print(mt.arange(11, chunks=4), mt.arange(2, 20, 3, chunks=2), mt.arange(10, 0, -3, chunks=1))
print(mt.arange(0.0, 1.0, 0.1, chunks=3), mt.arange(-1.5, 2.0, 0.5, chunks=((2, 3, 2),)))
print(mt.linspace(0, 1, 7, chunks=3), mt.linspace(-2, 2, 6, endpoint=False, chunks=4))
print(mt.eye(5, chunks=2), mt.eye(4, 6, k=2, chunks=(3, 4)), mt.eye(4, k=-1, dtype=int, chunks=3))
print(mt.identity(3, chunks=2), mt.full((2, 2), True, chunks=1))
print(mt.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]], chunks=2), mt.tensor([1.5, -2.25, 3.0], chunks=2))
print(mt.ones_like(mt.arange(5, chunks=2)), mt.zeros_like(mt.eye(2)), mt.full_like(mt.arange(3.0), 2.5))
