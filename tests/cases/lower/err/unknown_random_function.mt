# a random function outside version 1 -> error: not supported yet (`random.multinomial`)
import mars.tensor as mt
print(mt.random.multinomial(20, [0.5, 0.5], size=4))
