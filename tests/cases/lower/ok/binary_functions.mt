# every element-wise binary function of version 1
import mars.tensor as mt
a = mt.tensor([-3.0, -1.5, 0.0, 2.0, 7.5])
b = mt.tensor([2.0, 2.0, 1.0, -4.0, 2.0])
print(mt.add(a, b), mt.subtract(a, b), mt.multiply(a, b))
print(mt.divide(a, b), mt.true_divide(a, b), mt.floor_divide(a, b))
print(mt.mod(a, b), mt.remainder(a, b), mt.power(b, 3))
print(mt.maximum(a, b), mt.minimum(a, b), mt.fmax(a, b), mt.fmin(a, b))
print(mt.arctan2(a, b), mt.hypot(a, b))
print(mt.equal(a, b), mt.not_equal(a, b), mt.less(a, b))
print(mt.less_equal(a, b), mt.greater(a, b), mt.greater_equal(a, b))
p = a > 0
q = b > 0
print(mt.logical_and(p, q), mt.logical_or(p, q), mt.logical_xor(p, q))
i = mt.tensor([12, 10, -7])
j = mt.tensor([10, 6, 3])
print(mt.bitwise_and(i, j), mt.bitwise_or(i, j), mt.bitwise_xor(i, j))
