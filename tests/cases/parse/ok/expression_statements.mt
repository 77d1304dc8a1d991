# bare expressions are statements evaluated for their effects
import mars.tensor as mt
x = mt.ones(3)
x
x + 1
x.sum()
(x)
[x, x]
...
None
