# several index arrays must broadcast together -> NumPy's IndexError text at the second array
import mars.tensor as mt
x = mt.ones((3, 4))
print(x[[0, 1], [2, 3, 1]])
