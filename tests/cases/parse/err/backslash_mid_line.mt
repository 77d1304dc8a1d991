# a backslash continues a line only at its very end
x = 1 \ + 2
