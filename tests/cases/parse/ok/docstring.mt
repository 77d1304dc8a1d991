"""A script may open with a docstring.

It is an expression statement holding a string, spanning several lines.
"""
import mars.tensor as mt
print(mt.arange(3))
