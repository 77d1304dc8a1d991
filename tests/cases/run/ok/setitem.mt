# assignment through an index updates the tensor in place, as NumPy's __setitem__
import mars.tensor as mt

x = mt.arange(12.0, chunks=5).reshape(3, 4)
y = x            # the same object
row = x[1]       # a view
x[0, 0] = 100
x[2] = [7, 8, 9, 10]
x[:, 3] = -1
x[1:, 1:3] *= 10
print(x)
print(y.sum(), row)

# an int tensor: values are cast as NumPy's assignment casts
a = mt.arange(6, chunks=4)
a[1] = 2.7
a[-1] = True
a[2:4] = mt.array([30.9, 40.2])
a[:3] += 1
print(a, a.dtype)

# a boolean mask of the tensor's shape, or of its leading axes
z = mt.linspace(-1.0, 1.0, 9, chunks=4)
z[z < 0] = 0
z[z > 0.5] *= 2
print(z)
m = mt.arange(12, chunks=5).reshape(4, 3)
keep = mt.array([True, False, True, False])
m[keep] = [1, 2, 3]
m[~keep] += 100
print(m)

# through a view, and inside a function
v = mt.zeros((2, 3), chunks=2)
top = v[0]
top[1:] = 5
def fill_diagonal(t, value):
    for i in range(min(t.shape)):
        t[i, i] = value
fill_diagonal(v, 9)
print(v)

# a later read sees the update; an earlier copy does not
b = mt.ones(4)
c = b * 1
b[0] = 0
print(b.sum(), c.sum())
