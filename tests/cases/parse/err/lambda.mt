# lambda is not in version 1
f = lambda x: x + 1
