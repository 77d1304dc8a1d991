# printing: sep and end, text and numbers, 0-d results as NumPy scalars, bools, summarized large arrays, empty arrays
import mars.tensor as mt
x = mt.arange(5, chunks=2)
print("sum", x.sum(), "mean", x.mean(), sep=" | ", end=" <end>\n")
print(x.sum() > 3, (x > 2).any(), x.astype(mt.float32).mean(), x.max() * 1.5, 7)
print(mt.arange(2000, chunks=300), mt.arange(1500.0, chunks=400).reshape(30, 50) / 7)
print(mt.zeros((2, 0)), mt.arange(0), mt.zeros((3, 0)).sum(axis=1), mt.ones((0, 3)).sum(axis=0), mt.zeros(0).sum())
print(mt.tensor([1e-10, 1.0, 1e10], chunks=2), mt.tensor([0.1, 0.25, 100.0]), mt.tensor([True, False], chunks=1))
print()
print(mt.tensor(3.5), mt.tensor(-0.0), mt.tensor([[-1.5, 1.0], [0.0, 0.0]], chunks=1) / mt.tensor([[1.0, 0.0], [0.0, 1.0]]))
