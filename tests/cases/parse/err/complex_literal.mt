# complex numbers are not in version 1
z = 1 + 2j
