# randint's bounds must fit the requested dtype, with NumPy's message -> error: high is out of bounds for bool
import mars.tensor as mt
print(mt.random.randint(0, 3, size=4, dtype=bool))
