# A summary of a table of daily measurements, the kind of first look one takes at a
# data set: per-column minimum, maximum, mean, sample standard deviation (ddof=1),
# the day of each column's peak, how often values exceed a threshold, and the growth
# of a compounded rate. Three years of four synthetic sensors, one year per chunk.
import numpy as np

days = 3 * 365
day = np.arange(days, chunks=365).astype(np.float64)
season = np.sin(2 * 3.141592653589793 * day / 365)[:, None]
sensor = np.arange(4)[None, :]
table = 20 + 8 * season * (sensor + 1) / 4 + 0.01 * day[:, None] + sensor
print("table:", table.shape, table.dtype, table.ndim, "dimensions,", table.size, "values")

print("min: ", table.min(axis=0))
print("max: ", table.max(axis=0))
print("mean:", np.mean(table, axis=0))
print("std: ", np.std(table, axis=0, ddof=1))
print("var: ", table.var(axis=0, ddof=1))
print("peak day:", table.argmax(axis=0))
print("days above 30:", np.count_nonzero(table > 30, axis=0))
print("any day below 10:", np.any(table < 10), "all days above 5:", (table > 5).all())
print("overall mean and range:", table.mean(), np.amin(table), np.amax(table))

rate = 1 + 0.0001 * (season[:, 0] + 1)
growth = np.cumprod(rate)
print("compounded growth after each year:", growth[364::365])
print("yearly means of sensor 0:", table[:, 0].reshape(3, 365).mean(axis=1))
