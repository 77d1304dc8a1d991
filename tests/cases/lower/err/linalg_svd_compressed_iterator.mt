# svd_compressed with dask's other subspace iterator -> error: not supported yet: `iterator='QR'`
import mars.tensor as mt
a = mt.ones((100, 10), chunks=10)
u, s, vh = mt.linalg.svd_compressed(a, 2, iterator='QR')
