# mt.linalg names other than norm are not in the library yet -> error: not supported yet: `mars.tensor.linalg.svd`
import mars.tensor as mt
a = mt.ones((3, 4))
u, s, vh = mt.linalg.svd(a)
