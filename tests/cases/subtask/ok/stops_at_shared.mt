# a producer read by two consumer chunks stays its own subtask and is published once: s is read by both b and c
import mars.tensor as mt
s = mt.ones(4, chunks=2) * 3
b = s + 1
c = mt.sqrt(s)
print(b * c)
