# and / or / not, True / False / None on Python scalars
flag = True and not False or None
other = not flag and (1 < 2) or 3 >= 4
nothing = None
print(flag, other, nothing, not not True)
