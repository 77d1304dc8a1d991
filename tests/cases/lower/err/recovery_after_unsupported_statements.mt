# unsupported statements (a def block, a for block, unpacking) are reported and skipped; the errors after them are still found, and names they bind are not reported again -> three errors and one unknown name
import mars.tensor as mt
def scale(x, k):
    y = x * k
    return y
a, b = 1, 2
for i in range(3):
    total = i * 2
print(scale(a, b), total, i)
print(mt.ones(3) + mt.ones(4))
print(undefined_name)
