# workers: 1
# uint8 and int8 kernels: unsigned comparisons and extrema, sign- and zero-extension, a uint8 sum accumulated in uint64, an int8 image inverted and scaled
import mars.tensor as mt
img = mt.ones((4, 6), dtype=mt.uint8, chunks=(2, 6)) * 200
c = mt.ones(6, dtype=mt.int8, chunks=6) * -3
print(255 - img, mt.maximum(img, 250), img > 100)
print((img + c).sum(axis=1), abs(c), img.astype(mt.float32) / 255)
