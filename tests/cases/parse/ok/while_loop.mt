# while with an elif chain, a conditional expression, assert and an else clause
n = 0
while n < 3:
    if n == 0:
        n += 2
    elif n in (1, 2):
        n += 1 if n is not None else 0
    else:
        n += 1
else:
    assert n == 3, "n"
