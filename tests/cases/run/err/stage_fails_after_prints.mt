# a stage that fails prints what precedes the failing statement (earlier stages' and its own), then the error at its line; nothing after -> error: Integers to negative integer powers
import mars.tensor as mt
x = mt.arange(4, chunks=2)
print("first", x)
while x.sum() < 20:
    x = x + 1
    print("step", x.sum())
y = x ** (x - 10)
print("before the failing stage")
if y.sum() > 0:
    print("never")
print("never either")
