# a line continuation at the very end of the file -> error: unexpected end of file after `\`
x = 1 + \