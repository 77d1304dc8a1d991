# chunks=int gives every axis chunks of that size, the last one shorter (oracle: skipped, prints nsplits)
import mars.tensor as mt
print(mt.ones(10, chunks=3).nsplits)
print(mt.zeros((10, 7), chunks=5).nsplits)
print(mt.arange(12, chunks=4).reshape(3, 4).shape, mt.arange(12, chunks=12).nsplits)
print(mt.eye(5, chunks=2).nsplits, mt.linspace(0, 1, 9, chunks=100).nsplits)
print(mt.full((3, 3), 2.0, chunks=1).nsplits)
