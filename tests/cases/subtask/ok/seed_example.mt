# the seed's example: Mars fuses ADD and SUM into one node and leaves RAND out; blockwise fusion also takes both RANDs in, so the whole program is one subtask
import mars.tensor as mt
a = mt.random.rand(100, chunks=100)
b = mt.random.rand(100, chunks=100)
c = (a + b).sum()
print(c)
