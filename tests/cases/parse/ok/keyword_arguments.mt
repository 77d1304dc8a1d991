# positional and keyword arguments, trailing commas, nested calls
import mars.tensor as mt
a = mt.full((4, 4), 2.5, dtype=mt.float32, chunks=2)
s = a.sum(axis=(0, 1), keepdims=True,)
v = mt.var(a, axis=0, ddof=1)
print(s, v, sep=" | ", end="\n")
print(mt.clip(a, 0, 1,),)
