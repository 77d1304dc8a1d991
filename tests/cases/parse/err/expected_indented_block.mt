# a block header with no indented body -> error: expected an indented block
x = 1
if x:
print(x)
