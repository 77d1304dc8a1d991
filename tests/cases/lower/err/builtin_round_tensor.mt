# round() of an array is NumPy's TypeError (ndarray has no __round__) -> error: type numpy.ndarray doesn't define __round__ method
import mars.tensor as mt
print(round(mt.linspace(0, 1, 5)))
