# Ranking sensor readings: the five largest readings and where they were taken
# (Mars's `topk`), robust statistics (median and interquartile range with
# `percentile`), how often each alarm level occurs (`unique` with counts), and the
# rank of a threshold in the sorted readings (`searchsorted`). The readings span
# ten chunks, so the sorts behind them are distributed: each chunk is sorted, a stage
# samples them to pick pivots, and each output chunk merges the pieces between two
# pivots.
import mars.tensor as mt

n = 200_000
t = mt.arange(n, chunks=20_000)
readings = 50.0 + 10.0 * mt.sin(t * 0.0007) + 3.0 * mt.cos(t * 0.37) + 0.01 * (t % 101)

top, where = mt.topk(readings, 5, return_index=True)
print("five largest readings:", top)
print("taken at positions:   ", where)

q1, median, q3 = mt.percentile(readings, [25, 50, 75])
print("median:", round(float(median), 4), "IQR:", round(float(q3 - q1), 4))
print("same median:", bool(median == mt.median(readings)))

levels = mt.floor_divide(readings, 10).astype(mt.int64)   # alarm level of each reading
values, counts = mt.unique(levels, return_counts=True)
for level, count in zip(values.tolist(), counts.tolist()):
    print("level", level, "has", count, "readings")

ordered = mt.sort(readings)
threshold = 60.0
above = n - int(mt.searchsorted(ordered, threshold, side="right"))
print("readings above", threshold, ":", above, "=", int((readings > threshold).sum()))
