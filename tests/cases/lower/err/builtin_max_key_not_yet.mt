# key= needs a function value the language does not have yet -> error: not supported yet: key= in max()
print(max(1, 2, key=len))
