# unpacking three values into two names -> error: too many values to unpack (expected 2)
a, b = (1, 2, 3)
