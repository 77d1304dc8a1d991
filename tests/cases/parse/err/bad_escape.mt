# \x needs two hex digits
print("\x4")
