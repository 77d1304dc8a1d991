# a save into a directory that does not exist fails when it runs and names the file -> error: cannot save
import mars.tensor as mt
x = mt.ones((4, 4), chunks=2)
mt.save("target/no/such/dir/x.npy", x)
