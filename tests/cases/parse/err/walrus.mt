# assignment expressions are not in version 1
print(y := 3)
