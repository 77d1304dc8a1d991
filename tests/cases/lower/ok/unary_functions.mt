# every element-wise unary function of version 1 on float64 data
import mars.tensor as mt
x = mt.tensor([0.25, 0.5, 0.75])
y = mt.tensor([-2.5, -0.5, 0.5, 1.5, 2.5])
print(mt.negative(y), mt.positive(y), mt.abs(y), mt.absolute(y))
print(mt.sqrt(x), mt.square(y), mt.exp(x), mt.expm1(x))
print(mt.log(x), mt.log1p(x), mt.log2(x), mt.log10(x))
print(mt.sin(x), mt.cos(x), mt.tan(x))
print(mt.arcsin(x), mt.arccos(x), mt.arctan(x))
print(mt.sinh(x), mt.cosh(x), mt.tanh(x))
print(mt.floor(y), mt.ceil(y), mt.trunc(y), mt.rint(y), mt.sign(y))
print(mt.reciprocal(y), mt.isnan(y), mt.isinf(y), mt.isfinite(y))
print(mt.logical_not(y), mt.invert(mt.tensor([0, 5, -3])), mt.invert(mt.tensor([True, False])))
