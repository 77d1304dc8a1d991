# the seed's example over four chunks: each chunk's random inputs, add and sum map are one subtask; the map ends the group because the combine reads all four
import mars.tensor as mt
a = mt.random.rand(400, chunks=100)
b = mt.random.rand(400, chunks=100)
print((a + b).sum())
