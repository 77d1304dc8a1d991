# svd of a tall matrix with NumPy's default full_matrices=True needs the complete U -> error: not supported yet: `linalg.svd` with `full_matrices=True` of a non-square matrix
import mars.tensor as mt
a = mt.ones((100, 3), chunks=10)
u, s, vh = mt.linalg.svd(a)
