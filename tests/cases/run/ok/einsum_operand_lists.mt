# einsum's operand-list form: explicit and implicit outputs (labels in numeric order), ellipses (`...`), repeated labels (trace, diagonal), three operands, labels past 25, dtype=, under two chunkings
import mars.tensor as mt
for c in [2, (3, 1)]:
    a = (mt.arange(12).reshape((3, 4)) - 5).rechunk(c)
    b = (mt.arange(20).reshape((4, 5)) % 7).rechunk(c)
    print(mt.einsum(a, [0, 1], b, [1, 2], [0, 2]), mt.einsum(a, [0, 1], b, [1, 2]))
    print(mt.einsum(a, [1, 0]), mt.einsum(a, [1, 0], [0, 1]), mt.einsum(a, [0, 1], []))
    print(mt.einsum(b[:4, :4], [3, 3]), mt.einsum(b[:4, :4], [3, 3], [3]), mt.einsum(a, [30, 2], a, [30, 2], [2]))
    t = mt.arange(24, chunks=5).reshape((2, 3, 4))
    print(mt.einsum(t, [..., 0, 1], b, [1, 2], [..., 0, 2]), mt.einsum(t, [0, ...]))
    print(mt.einsum(a, [0, 1], b, [1, 2], b, [3, 2], [0, 3]), mt.einsum(a, [0, 1], a, [0, 1], dtype=mt.float64))
