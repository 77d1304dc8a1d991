# a function that calls itself -> error: not supported: recursion (`fact` calls itself)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)
print(fact(4))
