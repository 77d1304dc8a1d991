# a keyword the def does not have -> error: `f()` got an unexpected keyword argument `sacle`; help: did you mean `scale`?
def f(x, scale=1):
    return x * scale
print(f(2, sacle=3))
