# an `if` on a tensor of several elements (NumPy's error, found before anything runs) -> error: The truth value of an array with more than one element is ambiguous
import mars.tensor as mt
x = mt.ones(3)
if x > 0:
    print(x)
