# randint takes dtype bool, int32 or int64 and bounds up to the dtype's range (high is exclusive)
import mars.tensor as mt
coin = mt.random.randint(0, 2, size=5, dtype=bool)
big = mt.random.randint(0, 2**31, size=3, dtype=mt.int32)
die = mt.random.randint(1, 7, size=(2, 2), dtype="int64")
print(coin.dtype, big.dtype, die.shape, die.dtype, mt.random.randint(2, dtype=bool).shape)
