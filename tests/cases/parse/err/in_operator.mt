# the in operator is not in version 1
x = 1 in [1, 2]
