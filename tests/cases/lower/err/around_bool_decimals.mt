# around of a bool array with decimals != 0: NumPy cannot cast the float product back to bool -> error: Cannot cast ufunc
import mars.tensor as mt
b = mt.array([True, False])
print(mt.round(b, 1))
