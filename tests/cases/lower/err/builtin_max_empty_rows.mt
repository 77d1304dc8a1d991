# rows of zero elements have no truth value either -> error: The truth value of an empty array is ambiguous
import mars.tensor as mt
print(min(mt.ones((3, 0))))
