# load of a .npy whose header dict never closes -> error: "tests/cases/lower/data/malformed_header.npy" is not a valid .npy file: malformed header
import mars.tensor as mt
x = mt.load("tests/cases/lower/data/malformed_header.npy")
print(x)
