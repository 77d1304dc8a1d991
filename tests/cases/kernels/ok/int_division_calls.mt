# workers: 1
# integer floor division and remainder call the interpreter's own functions (Python's signs); int64 + - & | ^ stay inline
import mars.tensor as mt
a = mt.arange(-5, 5, chunks=5)
print(a // 3, a % 3, (a + 7) & 3)
