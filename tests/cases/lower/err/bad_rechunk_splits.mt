# rechunk to splits that do not cover the axis -> error: invalid chunks: splits (3, 3) sum to 6, but axis 0 has length 5
import mars.tensor as mt
x = mt.ones(5)
print(x.rechunk(((3, 3),)))
