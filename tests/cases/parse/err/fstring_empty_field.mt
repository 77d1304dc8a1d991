# an empty f-string field -> error
x = 1
print(f"a {} b")
