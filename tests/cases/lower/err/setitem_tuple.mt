# a tuple item cannot be assigned -> error: 'tuple' object does not support item assignment
t = (1, 2)
t[0] = 5
