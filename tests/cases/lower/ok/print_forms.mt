# print with several items, sep= and end=, strings with escapes, Python values, and no arguments at all
import mars.tensor as mt
x = mt.arange(3)
print(x, "and", x * 2)
print(x, x, sep=" | ")
print("no newline", end="")
print(" ... continued", end="!\n")
print("tab\tseparated", 'single "quotes"', "it's")
print()
print(1, 2.5, True, None, (1, 2), [3, 4], "text", sep=", ")
print(x.sum(), x.mean(), x.max(), sep="\n")
print("shape", x.shape, sep="=", end="\n\n")
