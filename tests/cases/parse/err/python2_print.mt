# Python 2 print statement gets a help to add parentheses
import mars.tensor as mt
x = mt.ones(3)
print x
