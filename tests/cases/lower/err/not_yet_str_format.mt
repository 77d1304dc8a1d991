# str methods are not supported yet (f-strings and str.format are language v2) -> error: not supported yet: the string method str.format
print("total: {}".format(3))
