# dividing Python scalars by zero at compile time, as Python does -> error: division by zero
import mars.tensor as mt
n = 0
x = mt.ones(3) * (1 / n)
print(x)
