# unsupported statements (a class block, a with block) are reported and skipped; the errors after them are still found, and names they bind are not reported again -> two unsupported statements, a shape error and one unknown name
import mars.tensor as mt
class Scale:
    k = 2
with open("f") as fh:
    total = 3
print(Scale, fh, total)
print(mt.ones(3) + mt.ones(4))
print(undefined_name)
