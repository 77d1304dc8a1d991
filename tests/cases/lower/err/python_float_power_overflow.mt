# a Python float power that overflows is an OverflowError in Python, not inf -> error: (34, 'Numerical result out of range'): the power overflows a float
x = 10 ** 400.0
print(x)
