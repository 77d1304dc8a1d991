# str methods other than format are not supported yet -> error: not supported yet: the string method str.split
print("a,b".split(","))
