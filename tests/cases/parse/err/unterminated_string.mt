# a string that is not closed on its line
print("hello)
x = 1
