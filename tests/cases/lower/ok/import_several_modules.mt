# `import numpy as np, mars.tensor as mt` binds both aliases
import numpy as np, mars.tensor as mt
print(np.ones(2).shape, mt.zeros((1, 3)).shape)
