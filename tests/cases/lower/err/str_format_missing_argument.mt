# str.format with an index past its arguments -> Python IndexError
print("{} {}".format(1))
