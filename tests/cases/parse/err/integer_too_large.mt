# integer literals must fit in 64 bits
x = 9223372036854775808
