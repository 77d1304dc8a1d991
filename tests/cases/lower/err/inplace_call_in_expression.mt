# an in-place method call inside a larger expression: Python would show the update through the rest of the expression (print(v, v.sort()) prints v sorted) -> error: not supported yet, make it a statement
import mars.tensor as mt
v = mt.array([3, 1, 2])
print(v, v.sort())
