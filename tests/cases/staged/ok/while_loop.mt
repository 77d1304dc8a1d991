# A loop whose condition needs a tensor's value: one stage per test of the
# condition; each reuses the chunks the one before computed (`cached`).
import mars.tensor as mt
x = mt.arange(4.0, chunks=2)
print("start")
while x.sum() < 20:
    x = x * 2
print(x)
