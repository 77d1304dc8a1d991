# an f-string conversion other than !r, !s, !a -> error
x = 1
print(f"{x!z}")
