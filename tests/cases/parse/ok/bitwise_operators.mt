# & | ^ ~ on boolean tensors, with Python's precedence: & before ^ before |
import mars.tensor as mt
a = mt.arange(10) > 3
b = mt.arange(10) < 7
c = a & b | ~a ^ b
d = (a | b) & (a ^ b)
print(c, d, ~c)
