# load of a file without the .npy magic string -> error: "tests/cases/lower/data/not_npy.npy" is not a .npy file
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/not_npy.npy"))
