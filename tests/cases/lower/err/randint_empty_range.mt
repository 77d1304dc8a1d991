# randint with low >= high -> error: randint needs low < high, got low=5 and high=2
import mars.tensor as mt
print(mt.random.randint(5, 2, size=3))
