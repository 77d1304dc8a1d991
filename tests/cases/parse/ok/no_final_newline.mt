# the last line has no newline character
import mars.tensor as mt
print(mt.ones(2))