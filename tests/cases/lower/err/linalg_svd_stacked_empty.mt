# svd with vectors of a stack of empty matrices -> error: not supported yet: `linalg.svd` of an empty matrix
import mars.tensor as mt
u, s, vh = mt.linalg.svd(mt.ones((2, 0, 3)))
