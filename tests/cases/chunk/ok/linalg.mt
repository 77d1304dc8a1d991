# linalg tiling: TSQR qr of a matrix split along both axes (columns rechunked into one chunk, row chunks shorter than the width merged): one qr.local per row block, one qr.stack, a qr.q per block and one qr.r, shared by Q and R; inv gathers its 2x2-chunked matrix into one chunk for one kernel; eigh's packed result sliced into w and v
import mars.tensor as mt
a = mt.ones((10, 3), chunks=((2, 2, 3, 3), (2, 1))) + mt.eye(10, 3)
q, r = mt.linalg.qr(a)
print(q)
print(r)
m = mt.eye(4, chunks=2) * 2
print(mt.linalg.inv(m))
w, v = mt.linalg.eigh(m)
print(w, v)
