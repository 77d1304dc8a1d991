# print with a keyword other than sep and end -> error: print has no parameter `color` (it takes sep= and end=)
import mars.tensor as mt
print(mt.ones(2), color="red")
