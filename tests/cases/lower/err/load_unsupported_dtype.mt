# load of a complex128 .npy -> error: "tests/cases/lower/data/c16_4.npy" has dtype <c16, which is not supported (bool, the signed and unsigned integers, float16, float32, float64)
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/c16_4.npy"))
