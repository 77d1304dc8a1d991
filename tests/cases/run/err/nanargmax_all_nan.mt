# nanargmax of a slice that is all NaN fails at run time, as NumPy's ValueError, after what precedes it is printed; the slice spans two chunks, and the error names the nanargmax, not the arithmetic fused after it -> error: All-NaN slice encountered
import mars.tensor as mt
nan = float("nan")
a = mt.tensor([[1.0, 3.0, 2.0], [nan, nan, nan]], chunks=(1, 2))
print(mt.nanargmax(a, axis=0))
b = mt.nanargmax(a, axis=1)
print(b * 2 + 1)
