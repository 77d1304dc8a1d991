# Standardizing the columns of a matrix: subtract each column's mean and divide by its
# standard deviation, so that afterwards every column has mean 0 and variance 1.
# The data is a deterministic signal whose columns have different offsets and scales.
import mars.tensor as mt

rows = 200_000
cols = 6

row = mt.arange(rows, chunks=50_000)[:, None]
col = mt.arange(cols)[None, :]
data = mt.sin(row * 0.001 * (col + 1)) * (col + 1) + 10 * (col + 1)
print("data:", data.shape, data.dtype)
print("first rows:")
print(data[:3])

mean = data.mean(axis=0)
std = data.std(axis=0)
print("column means:", mean)
print("column standard deviations:", std)

z = (data - mean) / std
print("standardized means are ~0:", mt.abs(z.mean(axis=0)).max() < 1e-9)
print("standardized standard deviations:", z.std(axis=0))
print("range of the standardized data:", z.min(), z.max())
