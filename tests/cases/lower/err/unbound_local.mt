# a function reads a name it assigns later, which makes it local -> error: local variable `total` referenced before assignment
total = 0
def add(v):
    total = total + v
    return total
print(add(1))
