# A selection's size is found by a stage; the save before it is part of that
# stage's dump, but `--emit` writes no file.
import mars.tensor as mt
x = mt.arange(10, chunks=4)
mt.save("/tmp/marsc-emit-must-not-write.npy", x)
y = x[x % 3 == 0]
print(y.shape, int(y.sum()))
