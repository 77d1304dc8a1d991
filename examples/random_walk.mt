# Statistics of a simple random walk: 64 walkers each take 20_000 steps of +1 or -1
# with equal probability. The position is the cumulative sum of the steps; theory
# says the mean final position is 0 and its mean square equals the number of steps.
import mars.tensor as mt

mt.random.seed(7)
walkers = 64
steps = 20_000

coin = mt.random.randint(0, 2, size=(walkers, steps), chunks=(16, 5_000))
step = 2 * coin - 1
position = step.cumsum(axis=1)
final = position[:, -1]

print("positions:", position.shape, position.dtype, "chunks:", position.nsplits)
print("mean final position:", final.mean())
print("mean squared final position / steps:", (final ** 2).mean() / steps)
print("farthest any walker got:", mt.abs(position).max())
print("mean time spent right of the origin:", (position > 0).mean())
print("first walker, every 4000th position:", position[0, 3999::4000])
