# cov and corrcoef: rowvar, bias, ddof, y as a second variable set, 1-D inputs (a 0-d result), ints made float64, dtype=float32, a chunked matrix
import mars.tensor as mt
x = mt.tensor([[0.0, 1.0, 2.0, 4.0], [2.0, 1.0, 0.5, 0.0], [1.0, 3.0, 2.0, 7.0]], chunks=2)
print(mt.cov(x), mt.cov(x, bias=True), mt.cov(x, ddof=2), mt.cov(x, rowvar=False))
print(mt.cov(x[0], x[1]), mt.cov(mt.tensor([1, 2, 4])), mt.cov(x[0], y=x[1:]), mt.cov(mt.arange(6).reshape((3, 2)), rowvar=False))
print(mt.corrcoef(x), mt.corrcoef(x[0], x[2]), mt.corrcoef(mt.tensor([1.0, 2.0, 5.0])), mt.corrcoef(x, rowvar=False))
print(mt.cov(x, dtype=mt.float32).dtype, mt.cov(mt.tensor([1, 2, 4])).dtype)
