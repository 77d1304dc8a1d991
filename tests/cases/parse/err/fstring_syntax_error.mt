# a syntax error inside an f-string field, pointed at in the source
x = 1
print(f"{x +}")
