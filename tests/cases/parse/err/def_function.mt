# def is not in version 1
import mars.tensor as mt
def double(x):
    return x * 2
