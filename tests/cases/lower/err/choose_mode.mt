# choose's mode is one of NumPy's clip modes -> error: clipmode must be one of 'clip', 'raise', or 'wrap' (got 'modulo')
import mars.tensor as mt
print(mt.choose([0, 1], [[1, 2], [3, 4]], mode="modulo"))
