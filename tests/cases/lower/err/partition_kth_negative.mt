# a negative kth counts from the end, and the message names it counted -> error: kth(=-1) out of bounds (3)
import mars.tensor as mt
m = mt.ones((3, 4))
print(mt.partition(m, -4, axis=0))
