# a variable annotation gets a targeted message -> error: variable annotations are not supported in version 1
n: int = 10
