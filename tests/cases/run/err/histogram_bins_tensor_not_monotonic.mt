# histogram's edges given as a tensor are read in a stage, then checked as NumPy checks them -> error: `bins` must increase monotonically, when an array
import mars.tensor as mt
a = mt.arange(10, chunk_size=4)
edges = mt.array([0.0, 4.0, 2.0, 9.0])
print(a.sum())
print(mt.histogram(a, bins=edges))
