# format code d for a float -> Python's ValueError
x = 1.5
print(f"{x:d}")
