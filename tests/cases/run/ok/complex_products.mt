# matrix products of complex64 and complex128 tensors: @ and matmul (matrices, vectors, stacks), dot, vdot (conjugating its first argument), inner, outer, tensordot, einsum (contractions and batch labels), mixed with real operands, under two chunkings
import mars.tensor as mt
for c in [2, (3, 1)]:
    a = ((mt.arange(12).reshape((3, 4)) - 5) + 1j * (mt.arange(12).reshape((3, 4)) % 3)).rechunk(c)
    b = ((mt.arange(20).reshape((4, 5)) % 7) - 2j * (mt.arange(20).reshape((4, 5)) % 4)).rechunk(c)
    print(a @ b, mt.matmul(a, b[:, 0]), mt.matmul(a[0], b))
    print(mt.dot(a, b).dtype, mt.dot(a[0], b[:, 1]), mt.vdot(a, a), mt.vdot(a[0], b[:, 0]), mt.vdot(b[:, 0], a[0]))
    print(mt.inner(a, a), mt.outer(a[0], b[0]))
    print(mt.tensordot(a, b, axes=1), mt.tensordot(a, a, axes=([0, 1], [0, 1])))
    print(mt.einsum("ij,jk->ik", a, b), mt.einsum("ij,ij->i", a, a), mt.einsum("ij,kj->ik", a, a.conj()))
    print(a @ mt.arange(4.0, chunks=3), mt.arange(3, chunks=2) @ a, (a @ b.real).dtype)
    s = mt.stack([a, a * 2j, a.conj()]).rechunk((2, 2, 3))
    print(s @ b, (s @ s.transpose((0, 2, 1))).shape)
    f = a.astype(mt.complex64)
    g = b.astype(mt.complex64)
    print(f @ g, (f @ g).dtype, mt.vdot(f, f), (f @ b).dtype, (f @ mt.ones((4, 2), dtype=mt.float32)).dtype)
