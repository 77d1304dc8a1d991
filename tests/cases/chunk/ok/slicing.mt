# basic indexing touches only the chunks it needs; negative steps reverse the pieces
import mars.tensor as mt
x = mt.arange(9, chunks=3)
print(x[::-2], x[7:1:-3], x[2:8])
m = mt.ones((6, 6), chunks=(4, 2))
print(m[1, ::-1], m[None, 2:5], m[..., 3], m[::-4, 1:2])
print(x[8:3], x[5])
