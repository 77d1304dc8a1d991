# a reduction of 2^22 one-element chunks needs twice as many chunk operations as the
# cap, so it is refused while compiling instead of running out of memory
import mars.tensor as mt
print(mt.ones(4194304, chunks=1).sum())
