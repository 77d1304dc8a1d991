# a save is an init, one region per chunk and a commit; a second save to the same path waits for the first commit
import mars.tensor as mt
x = mt.ones((2, 4), chunks=2)
mt.save("target/subtask_case.npy", x)
mt.save("target/subtask_case.npy", x + 1)
