# file effects follow program order: a load after a save of the same file (under any spelling) reads what was saved, not the file's old contents
import mars.tensor as mt
mt.save("target/run_case_file_order.npy", mt.arange(5, chunks=2))
print(mt.load("target/run_case_file_order.npy"))
mt.save("target/../target/run_case_file_order", mt.arange(6.0).reshape(2, 3) / 4)
x = mt.load("./target/run_case_file_order.npy", chunks=1)
print(x, x.dtype, x.shape, x.sum(axis=0))
