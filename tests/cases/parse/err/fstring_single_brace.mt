# a lone } in an f-string -> error
x = 1
print(f"a } b")
