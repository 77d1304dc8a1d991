# augmented assignment to a name that was never bound -> error: unknown name `acc`
import mars.tensor as mt
acc += mt.ones(3)
print(acc)
