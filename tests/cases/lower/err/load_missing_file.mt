# load of a file that does not exist -> error: cannot open "tests/cases/lower/data/no_such_file.npy": no such file
import mars.tensor as mt
x = mt.load("tests/cases/lower/data/no_such_file.npy")
print(x.sum())
