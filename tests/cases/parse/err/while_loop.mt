# while loops are not in version 1
n = 0
while n < 3:
    n += 1
