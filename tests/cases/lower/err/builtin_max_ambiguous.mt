# bare max is Python's: comparing a multi-element tensor with 0 is Python's ambiguous-truth error (v1 took the 0 as an axis) -> error: The truth value of an array with more than one element is ambiguous
import mars.tensor as mt
x = mt.arange(5) - 10
print(max(x, 0))
