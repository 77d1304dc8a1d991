# Python's max/min/all/any/round on tensor values are decided in stages, with Python's results
import mars.tensor as mt
x = mt.arange(5.0)
print(max(x.sum(), x.max() * 3), min(x[1], x[2]))
print(all(x), any(x), all(x + 1), all([x.sum() > 1, x[0]]))
print(round(x.mean() + 0.5), round(x.sum() / 4), round(mt.int64(7)))
print(max(x[3], 2.5), min(2, x[1]))
total = mt.arange(5).sum() - 20
print(max(total, 0), min(total, 0))
print(all(mt.arange(3) > 0), any(mt.arange(3) > 0), all(mt.ones((3, 1))))
print(mt.arange(3).to_numpy(), float(mt.arange(3).to_numpy().sum()))
x = mt.array([2.675, 1234.5678, -0.4, 1e300])
print(round(x[0], 2), round(x[1], -2), round(x[2], 0), round(x[3], 10), round(x[0], 400))
print(round(mt.int64(1250), -2), round(mt.int64(7), 2), round(x.sum() * 0 + 0.125, 2))
