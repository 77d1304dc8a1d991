# digitize: increasing and decreasing bins, right, NaN after every edge, ints, empty and repeated edges, bins from a tensor read in a stage
import mars.tensor as mt
x = mt.array([0.5, 1.0, 1.5, float("nan"), 3.0, 9.0], chunk_size=4)
print(mt.digitize(x, [1, 2, 3]), mt.digitize(x, [1, 2, 3], right=True))
print(mt.digitize(x, [3, 2, 1]), mt.digitize(x, [3, 2, 1], right=True))
print(mt.digitize(mt.array([[1, 5], [2, 7]]), mt.array([2, 6])), mt.digitize(x, []), mt.digitize(x, [2, 2]))
print(mt.digitize(mt.arange(10, chunk_size=3), mt.array([2.5, 7.0])).sum())
