# cov with fweights and aweights (alone, together, with ddof=0 and ddof=3, bias, rowvar=False, y, a 1-d m, ints and lists as weights, float weights that are whole numbers), and a weight sum at or below ddof (an infinite factor), under two chunkings
import mars.tensor as mt
for c in [2, (3, 2)]:
    x = mt.tensor([[0.0, 1.0, 2.0, 4.0, 3.5], [2.0, 1.0, 0.5, 0.0, -1.0], [1.0, 3.0, 2.0, 7.0, 2.0]]).rechunk(c)
    f = mt.tensor([1, 2, 0, 3, 1], chunks=3)
    w = mt.tensor([0.5, 1.0, 2.0, 0.25, 1.5], chunks=2)
    print(mt.cov(x, fweights=f), mt.cov(x, aweights=w))
    print(mt.cov(x, fweights=f, aweights=w), mt.cov(x, fweights=f, aweights=w, ddof=0))
    print(mt.cov(x, aweights=w, bias=True), mt.cov(x, fweights=[2, 1, 1, 1, 2], ddof=3))
    print(mt.cov(x.T, rowvar=False, aweights=w), mt.cov(x[0], x[1], fweights=f))
    print(mt.cov(x[0], fweights=f), mt.cov(x[:2], y=x[2], aweights=w, fweights=f))
    print(mt.cov(x, fweights=mt.tensor([2.0, 0.0, 1.0, 0.0, 0.0]), ddof=5), mt.cov(x, aweights=[1, 1, 1, 1, 1]))
    print(mt.cov(mt.arange(10).reshape((2, 5)), fweights=f).dtype, mt.cov(x.astype(mt.float32), aweights=w).dtype)
