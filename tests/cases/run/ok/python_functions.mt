# `def` functions: positional, default and keyword arguments, several returns and
# early return, tuples returned and unpacked, tensors passed as objects (an in-place
# update inside a function is seen by the caller), one function called with
# different shapes, and module globals read from inside a function.
import mars.tensor as mt

scale = 10.0

def standardize(x, axis=0, eps=1e-12):
    mu = x.mean(axis=axis)
    sd = x.std(axis=axis)
    return (x - mu) / (sd + eps), mu

def sign_name(n):
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    return "positive"

def scaled(x):
    return x * scale

def bump(t, by=1):
    t += by

def nothing():
    pass

a = mt.arange(12, dtype=float, chunk_size=2).reshape(4, 3)
z, mu = standardize(a)
print(z)
print(mu)
zt, mut = standardize(a.T, eps=0.5)
print(zt.shape, mut)
print(standardize(mt.arange(5.0), axis=0)[1])
print(sign_name(-3), sign_name(0), sign_name(n=7))
print(scaled(mt.ones(3, chunk_size=2)))
b = mt.zeros((2, 3), chunk_size=(1, 2))
alias = b
bump(b)
bump(b, by=2.5)
print(alias)
print(nothing())
(p, q), r = (1, 2), [3]
print(p, q, r)
first, second = mt.arange(6).reshape(2, 3)
print(first, second)

# a default is evaluated once: its tensor is shared by every call that uses it
def accumulate(x, total=mt.zeros(3)):
    total += x
    return total

s1 = accumulate(mt.ones(3))
s2 = accumulate(mt.ones(3))
print(s1, s2)

# early return from inside a loop; a returned slice is a view of the argument
def first_big(values, limit):
    for i, v in enumerate(values):
        if v > limit:
            return i, v
    return None

def head(x):
    return x[:2]

print(first_big([1, 5, 9], 4), first_big((1, 2), 10))
c = mt.arange(5.0, chunk_size=2)
h = head(c)
h += 100
print(c)
