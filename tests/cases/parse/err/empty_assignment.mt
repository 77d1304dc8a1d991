# an assignment needs a value
x =
