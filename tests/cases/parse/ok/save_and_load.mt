# mt.save / np.save and load with chunks
import mars.tensor as mt
import numpy as np
x = mt.arange(100, chunks=10)
mt.save("out/x.npy", x)
np.save('out/y.npy', x * 2)
y = mt.load("out/x.npy", chunks=25)
print(y.sum())
