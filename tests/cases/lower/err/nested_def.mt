# a def inside a def -> error: not supported yet: a `def` inside a function
def outer(x):
    def inner(y):
        return y
    return inner(x)
print(outer(1))
