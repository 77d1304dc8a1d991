# a call that updates its caller's tensor inside a larger expression (Python would show the update through values already read) -> error: not supported yet: a call that updates a tensor in place inside a larger expression
import mars.tensor as mt
def bump(t):
    t += 1
    return t
x = mt.zeros(2)
print(x, bump(x))
