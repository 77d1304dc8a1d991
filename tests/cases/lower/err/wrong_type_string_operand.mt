# a string used as an arithmetic operand -> error: unsupported operand types for +: string and tensor
import mars.tensor as mt
x = mt.ones(3)
print("total: " + x)
