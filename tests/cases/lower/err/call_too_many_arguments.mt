# calling a def with too many arguments -> error: `f()` takes 1 positional argument but 2 were given
def f(a):
    return a
print(f(1, 2))
