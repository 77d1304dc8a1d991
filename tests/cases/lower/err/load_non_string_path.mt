# load with a number for a path -> error: expected a string path for `load`, found an int
import mars.tensor as mt
print(mt.load(3))
