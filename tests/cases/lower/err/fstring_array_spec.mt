# a format spec on a 1-D tensor -> NumPy's TypeError
import mars.tensor as mt
x = mt.arange(3)
print(f"{x:.2f}")
