# a character that is not part of the language
x = 1 $ 2
