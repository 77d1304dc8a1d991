# letters glued to a number are one invalid literal, reported once, as Python does -> error: invalid decimal literal
x = 2.5e + 1
y = 3km
