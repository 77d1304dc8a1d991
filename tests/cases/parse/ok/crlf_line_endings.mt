# Windows line endings (CRLF) are accepted
import mars.tensor as mt
x = mt.ones(2) + \
    1
print(x)
