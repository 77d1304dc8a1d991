# an assertion that is false while compiling -> error: assertion failed; note: AssertionError: rows
import mars.tensor as mt
x = mt.ones((2, 3))
assert x.shape[0] == 3, "rows"
