# a sub-namespace marsc does not have -> error: not supported yet: `mars.tensor.fft`
import mars.tensor as mt
a = mt.eye(3)
print(mt.fft.fft(a))
