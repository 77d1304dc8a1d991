# def with positional and default parameters, an early return, a bare return and pass
import mars.tensor as mt
def double(x, k=2):
    if k == 0:
        return
    return x * k
def nothing(): pass
