# a reduction of 2^25 one-element chunks (8192 x 4096) needs twice as many chunk
# operations as the cap, so it is refused while compiling instead of running out of memory
import mars.tensor as mt
print(mt.ones((8192, 4096), chunks=1).sum())
