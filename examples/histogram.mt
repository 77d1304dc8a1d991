# Histogram of a sample: two million draws from a normal distribution with mean 10
# and standard deviation 2, in eight chunks. Each chunk counts its values into 16
# equal bins between the sample's minimum and maximum (read first, in a stage), the
# per-chunk counts are added, and the result is drawn as text bars. About 68% of a
# normal sample lies within one standard deviation of the mean, 95% within two.
import mars.tensor as mt

mt.random.seed(7)
n = 2_000_000
sample = mt.random.normal(10.0, 2.0, n, chunks=250_000)

counts, edges = mt.histogram(sample, bins=16)
print("values:", n, "counted:", counts.sum(), "chunks:", sample.nsplits)

# One '#' per 10,000 values.
lefts = edges.tolist()
for i, count in enumerate(counts.tolist()):
    bar = "#" * (count // 10_000)
    print(round(lefts[i], 2), "..", round(lefts[i + 1], 2), count, bar)

within_one = mt.histogram(sample, bins=[8.0, 12.0])[0].sum() / n
within_two = mt.histogram(sample, bins=[6.0, 14.0])[0].sum() / n
print("within one standard deviation:", round(float(within_one), 3))
print("within two standard deviations:", round(float(within_two), 3))

# The same counts by value with bincount: each value's bin index from its distance
# to the minimum, one bin per unit.
low = sample.min()
units = mt.floor(sample - low).astype(int)
print("per unit from the minimum:", mt.bincount(units))
