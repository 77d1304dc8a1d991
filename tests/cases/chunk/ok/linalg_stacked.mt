# stacked linalg tiling: a (3, 4, 2, 2) stack chunked (2+1, 3+1) along its leading axes and split across the matrices is rechunked to whole matrices only (the leading chunks stay), then one det/inv kernel per chunk, each reading the chunk at the same leading position; solve's b broadcast to a's leading axes takes the same chunks
import mars.tensor as mt
a = mt.ones((3, 4, 2, 2), chunks=((2, 1), (3, 1), (1, 1), (2,))) + mt.eye(2)
print(mt.linalg.det(a))
print(mt.linalg.inv(a))
print(mt.linalg.solve(a, mt.ones(2)))
