# load(mmap_mode='r+') would let the script write the file -> error: not supported yet: mmap_mode='r+'; use mmap_mode='r'
import mars.tensor as mt
print(mt.load("tests/cases/lower/data/i32_fortran_2x3.npy", mmap_mode="r+"))
