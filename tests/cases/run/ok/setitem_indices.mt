# x[idx] = v and x[idx] OP= v with an integer index (a tensor or a list) on one axis, every other axis whole: repeated indices keep the last value for '=' and update once for '+=' (NumPy's buffering), negative indices, values broadcast and cast as NumPy assigns them, every name and view of x sees the change
import mars.tensor as mt
x = mt.arange(10, chunk_size=3)
y = x
x[mt.array([1, 1, 3])] = mt.array([5, 6, 7])
print(x, y)
x[[1, 1, -1]] += 10
print(x)
z = mt.arange(12, chunk_size=2).reshape(3, 4)
z[:, [0, 2]] = 0
print(z)
w = mt.arange(12.0).reshape(3, 4).rechunk(2)
w[[0, 2]] = [[1, 2, 3, 4], [5, 6, 7, 8]]
print(w)
w[mt.array([[0], [2]])] = 9
print(w)
v = mt.ones(6, chunk_size=4)
v[mt.array([5, 0, 5, 2], chunk_size=3)] *= mt.array([2.0, 3.0, 4.0, 5.0], chunk_size=3)
print(v)
u = mt.zeros(5, dtype=int)
u[[]] = 3
u[[4, -5]] = 2.7
print(u)
s = mt.arange(8, chunk_size=3)
t = s[2:6]
t[[0, 3]] = -1
print(s, t)
