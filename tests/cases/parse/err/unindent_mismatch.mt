# a dedent to a level no block opened -> error: unindent does not match any outer indentation level
for i in range(3):
    if i:
        print(i)
  print(2)
