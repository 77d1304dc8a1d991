# explicit splits that do not add up to the axis length -> error: invalid chunks: splits (2, 2) sum to 4, but axis 0 has length 5
import mars.tensor as mt
print(mt.ones(5, chunks=((2, 2),)))
