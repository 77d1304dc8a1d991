# a product of 1000 x 1000 blocks by 1000 x 1000 blocks: a billion block products,
# refused while compiling (with the numbers) instead of tiling past all memory
import mars.tensor as mt
x = mt.ones((10000, 10000), chunks=10)
print((x @ x)[0, 0])
