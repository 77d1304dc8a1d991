# Hourly temperatures (30 days x 24 hours, float32) kept in a compressed Zarr store:
# read them chunk by chunk, summarise each day, and write the readings converted to
# Fahrenheit as a new blosc-lz4 Zarr array that zarr-python, dask or xarray can open.
import mars.tensor as mt

celsius = mt.fromzarr("examples/data/hourly_temps.zarr")
print(celsius.shape, celsius.dtype)

daily_mean = celsius.mean(axis=1)
daily_range = celsius.max(axis=1) - celsius.min(axis=1)
print("first days, mean:", daily_mean[:3])
print("first days, range:", daily_range[:3])
print("warmest hour of the month:", celsius.max())

fahrenheit = celsius * 9 / 5 + 32
mt.tozarr("target/hourly_temps_f.zarr", fahrenheit, compressor="blosc-lz4")
print("written in Fahrenheit, mean", fahrenheit.mean())
