# casting= must name one of NumPy's rules -> error: casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got 'strict')
import mars.tensor as mt
print(mt.stack([mt.ones(2), mt.ones(2)], casting="strict"))
