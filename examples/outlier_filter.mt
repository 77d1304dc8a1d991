# Outlier filtering with a boolean mask: readings more than three standard deviations
# from the mean are dropped and the statistics computed again on what is left. How
# many readings the mask keeps is known only at run time, so the script runs in
# stages: one counts what each chunk keeps, then the selection is planned with those
# counts and runs like any other step.
import mars.tensor as mt

n = 100_000
t = mt.arange(n, chunks=10_000)
readings = 20.0 + 2.0 * mt.sin(t * 0.013) + 0.5 * mt.cos(t * 0.71)
spikes = t % 997 == 0                      # every 997th reading is a spike
readings = mt.where(spikes, readings + 40.0 * mt.sin(t * 1.3) ** 2 + 15.0, readings)

mean, std = readings.mean(), readings.std()
keep = mt.abs(readings - mean) <= 3 * std
clean = readings[keep]
print("readings:", n, "kept:", clean.shape[0], "dropped:", n - clean.shape[0])
print("mean before/after:", round(float(mean), 6), round(float(clean.mean()), 6))
print("std before/after:", round(float(std), 6), round(float(clean.std()), 6))
dropped = mt.flatnonzero(~keep)
print("first dropped positions:", dropped[:5])
print("largest dropped reading:", readings[dropped].max())
