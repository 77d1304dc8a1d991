# load of a float16 .npy -> error: "tests/cases/lower/data/f16_4.npy" has dtype <f2, which is not supported (bool, the signed and unsigned integers, float32, float64)
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/f16_4.npy"))
