# << and >> are not in version 1 (two statements, two errors)
x = 1 << 4
y = 256 >> 2
