# max(t) iterates the rows of a 2-d tensor and compares them, which Python cannot do for rows of several elements -> error: The truth value of an array with more than one element is ambiguous
import mars.tensor as mt
print(max(mt.ones((2, 3))))
