# dot of a matrix and a vector of the wrong length -> error: dot: inner dimensions differ, (2, 3) and (2,): 3 != 2
import mars.tensor as mt
print(mt.dot(mt.ones((2, 3)), mt.ones(2)))
