# workers: 1
# a fused float chain folded into a sum: one row kernel, 2-lane float64 vectors, the chain inlined in the loop
import mars.tensor as mt
x = mt.arange(10, chunks=5) * 0.5
print(mt.sqrt(x * x + 1.0).sum())
