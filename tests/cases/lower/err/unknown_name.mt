# a name that was never bound -> error: unknown name `total`
import mars.tensor as mt
x = mt.ones(3)
print(total)
