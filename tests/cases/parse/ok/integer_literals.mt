# decimal, underscored, hexadecimal, octal and binary integers; i64 extremes
import mars.tensor as mt
a = [42, 0, 00, 1_000_000, 0x1f, 0XFF, 0o17, 0O7, 0b101, 0B1_0]
big = 9223372036854775807
neg = -9223372036854775807
print(mt.tensor(a), big, neg)
