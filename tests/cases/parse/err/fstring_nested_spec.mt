# a field inside a format spec -> not supported yet
x = 1
print(f"{x:{x}}")
