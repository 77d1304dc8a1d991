# chunks="auto" (the default) and the synonym chunk_size= accept the same specs (oracle: skipped, prints nsplits)
import mars.tensor as mt
print(mt.ones((100, 100)).nsplits)
print(mt.ones((100, 100), chunks="auto").nsplits)
print(mt.ones((10, 8), chunk_size=4).nsplits, mt.ones((10, 8), chunk_size=(5, -1)).nsplits)
print(mt.arange(10, chunk_size=((5, 5),)).nsplits, mt.linspace(0, 1, 10, chunk_size=3).nsplits)
print(mt.load("tests/cases/lower/data/f64_3x4.npy", chunk_size=2).nsplits)
