# calling a def without a required argument -> error: `f()` missing 1 required argument: `b`
def f(a, b):
    return a + b
print(f(1))
