# load reads each chunk's region of the file; save writes each chunk's region between an init and a commit
import mars.tensor as mt
a = mt.load("tests/cases/lower/data/f64_3x4.npy", chunks=2)
b = mt.load("tests/cases/lower/data/i32_fortran_2x3.npy", chunks=(1, 2))
mt.save("target/chunk_case_out.npy", a * 2)
mt.save("target/chunk_case_out.npy", b)
print(a.sum(axis=0))
