# a required parameter after one with a default -> error: parameter without a default follows parameter with a default
def f(a=1, b):
    return a
