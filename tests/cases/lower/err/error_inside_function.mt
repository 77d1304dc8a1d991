# an error in a function's body points at the body and at the call -> error: operands could not be broadcast together; in this call of `add`
import mars.tensor as mt
def add(a, b):
    return a + b
print(add(mt.ones(3), mt.ones(4)))
