# load of a .npy shorter than its header promises -> error: "tests/cases/lower/data/truncated_data.npy" is truncated: 100 float64 values need 800 bytes, found 8
import mars.tensor as mt
x = mt.load("tests/cases/lower/data/truncated_data.npy")
print(x)
