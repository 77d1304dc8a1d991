# for loops are not in version 1
import mars.tensor as mt
for i in range(3):
    print(mt.ones(i))
