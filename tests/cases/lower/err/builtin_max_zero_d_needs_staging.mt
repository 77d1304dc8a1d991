# max(total, 0) on a 0-d tensor depends on its value: not supported yet (staged execution), never a guess -> error: not supported yet: comparing a tensor's value with max() needs staged execution
import mars.tensor as mt
total = mt.arange(5).sum() - 20
print(max(total, 0))
