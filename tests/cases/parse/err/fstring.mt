# f-strings are not in version 1
x = 1
print(f"x = {x}")
