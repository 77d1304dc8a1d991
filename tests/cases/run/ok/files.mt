# load reads each chunk's region of a .npy file (C and Fortran order); save then writes a file numpy can read (here into target/)
import mars.tensor as mt
a = mt.load("tests/cases/lower/data/f64_3x4.npy", chunks=(2, 3))
b = mt.load("tests/cases/lower/data/i32_fortran_2x3.npy", chunks=1)
c = mt.load("tests/cases/lower/data/f32_6.npy", chunks=4)
print(a, b, c, a.sum(axis=0), b.T @ b, c.cumsum())
mt.save("target/run_case_files_a.npy", a * 2)
mt.save("target/run_case_files_b.npy", b.T)
print(mt.load("tests/cases/lower/data/i64_scalar.npy") + 1)
