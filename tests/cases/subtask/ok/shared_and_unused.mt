# only what an output needs runs: an unused tensor gets no subtask, a shared one is computed once and published to both users
import mars.tensor as mt
a = mt.arange(6, chunks=3)
unused = a * 100
b = a + 1
print(b, b.sum())
