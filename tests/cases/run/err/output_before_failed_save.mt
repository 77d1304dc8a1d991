# what precedes a failing save is printed first, as in Python; what follows is not -> error: cannot save
import mars.tensor as mt
print("start")
x = mt.arange(10, chunks=3)
print(x.sum())
mt.save("target/no/such/dir/x.npy", x)
print("after")
print(x.sum() * 2)
