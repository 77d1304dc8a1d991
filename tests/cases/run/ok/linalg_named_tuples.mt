# NumPy 2's named tuples from mt.linalg (SlogdetResult, QRResult, SVDResult, EighResult): printed as NumPy prints them (each field's repr, multi-line arrays laid out as Python does, also in f-strings), fields by name (also of stacks), indexing, unpacking, len, iteration, _fields; a field is the same object as its item (an in-place update shows through both); a slice or + is a plain tuple; lstsq stays a plain tuple
import mars.tensor as mt
a = mt.tensor([[4.1, 1.3, 2.2], [1.3, 5.7, 3.1], [2.2, 3.1, 6.3]], chunks=2)
s = mt.linalg.slogdet(a)
print(s)
print(s.sign, s.logabsdet, s[0], s[-1], len(s))
sign, logabsdet = s
print(sign, logabsdet, s._fields)
print(mt.linalg.slogdet(mt.stack([a, -a, 2 * a]).rechunk((2, 3, 1))))
print(mt.linalg.slogdet(mt.tensor([[0.0, 1.0], [1.0, 0.0]]))[:1], mt.linalg.slogdet(mt.eye(2)) + (1,))
d = mt.tensor([[2.0, 0.0], [0.0, 3.0]])
print(mt.linalg.eigh(d))
print(mt.linalg.qr(mt.tensor([[-3.0, 1.0], [4.0, 2.0]])))
print(mt.linalg.svd(mt.tensor([[3.0, 0.0], [0.0, 2.0]])))
print(f"{mt.linalg.slogdet(d)}|{mt.linalg.slogdet(d).logabsdet:.3f}")
r = mt.linalg.eigh(a)
print(r.eigenvalues)
print(mt.allclose(a @ r.eigenvectors, r.eigenvectors * r.eigenvalues), r._fields)
q = mt.linalg.qr(a)
print(mt.allclose(q.Q @ q.R, a), q.Q.shape, q.R.shape, mt.abs(q[1]))
for part in mt.linalg.qr(mt.ones((7, 3), chunks=2), mode='complete'):
    print(part.shape)
t = mt.arange(24, chunks=5).reshape((8, 3)) ** 1.5 % 7.0
u = mt.linalg.svd(t, full_matrices=False)
print(u.S, len(u), u._fields)
print(mt.allclose((u.U * u.S) @ u.Vh, t), u.U.shape, u.Vh.shape)
U, S, Vh = u
print(mt.allclose(U, u[0]), mt.all(S == u.S))
v = u.Vh
print(mt.allclose(v @ v.T, mt.eye(3)))
print(mt.linalg.svd(mt.stack([t, 2 * t]), full_matrices=False).S)
e = mt.linalg.eigh(mt.stack([d, 2 * d]))
print(e.eigenvalues, len(e))
x = mt.linalg.lstsq(d, mt.tensor([2.0, 3.0]))
print(len(x), x[0], x[3])
e = mt.linalg.eigh(d)
w = e.eigenvalues
w += 1
print(e.eigenvalues, e[0])
w2, v2 = e
w2 *= 2
print(e.eigenvalues, w)
