# a chunks tuple with more entries than the tensor has axes -> error: invalid chunks: 3 entries for a tensor of dimension 2
import mars.tensor as mt
print(mt.ones((4, 4), chunks=(2, 2, 2)))
