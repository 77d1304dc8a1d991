# a non-breaking space (often pasted from a web page) is named by its code point, as Python does -> error: invalid non-printable character U+00A0
x = 1 + 2
y = 3​
