# load of a datetime64 .npy -> error: "tests/cases/lower/data/datetime_2.npy" has dtype <M8[D], which is not supported (bool, the integers, the floats and the complex dtypes)
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/datetime_2.npy"))
