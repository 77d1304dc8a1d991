# print's sep must be a string -> error: expected a string for `sep`, found an int
import mars.tensor as mt
print(mt.ones(2), mt.zeros(2), sep=1)
