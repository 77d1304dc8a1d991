# Cosine similarity between 1000 documents, each a vector of 64 non-negative term
# weights: normalize every row to unit length, and one matrix product gives the
# cosine of the angle between every pair of documents.
import mars.tensor as mt

docs = 1_000
terms = 64
d = mt.arange(docs, chunks=250)[:, None]
t = mt.arange(terms, chunks=32)[None, :]
weights = mt.abs(mt.sin(0.7 * d + 1.3 * t)) * mt.exp(-0.05 * t)

norms = mt.sqrt((weights * weights).sum(axis=1, keepdims=True))
unit = weights / norms
similarity = unit @ unit.T
print("similarity:", similarity.shape, similarity.dtype)
print(similarity[:4, :4])
print("diagonal is 1:", mt.abs(mt.sum(similarity * mt.eye(docs), axis=1) - 1).max() < 1e-12)
print("symmetric:", mt.abs(similarity - similarity.T).max() < 1e-12)
print("mean similarity:", similarity.mean())

others = similarity - 2 * mt.identity(docs)
print("document most like document 0:", others[0].argmax())
print("most similar distinct pair has cosine", others.max())
