# decimal integers may not have leading zeros
x = 017
