# Softmax over the rows of a matrix of scores, as a classifier's last layer computes
# it: exp(s - max) / sum(exp(s - max)) row by row. Subtracting each row's maximum
# first keeps exp from overflowing and does not change the result. The float32
# version shows that float32 stays float32 (Python scalars do not promote it).
import mars.tensor as mt

samples = 5_000
classes = 10
i = mt.arange(samples, chunks=1_000)[:, None]
j = mt.arange(classes)[None, :]
scores = 3.0 * mt.sin(0.37 * i + 1.1 * j) + 0.02 * j

shifted = scores - scores.max(axis=1, keepdims=True)
e = mt.exp(shifted)
probs = e / e.sum(axis=1, keepdims=True)
print("probabilities:", probs.shape, probs.dtype)
print(probs[:3])
print("rows sum to 1:", mt.abs(probs.sum(axis=1) - 1).max() < 1e-12)
print("predicted class of the first rows:", probs.argmax(axis=1)[:12])
entropy = -(probs * mt.log(probs)).sum(axis=1)
print("mean entropy:", entropy.mean(), "of at most", mt.log(classes))

scores32 = scores.astype(mt.float32)
e32 = mt.exp(scores32 - scores32.max(axis=1, keepdims=True))
probs32 = e32 / e32.sum(axis=1, keepdims=True)
print("float32 probabilities:", probs32.dtype, (probs32 * 2.0).dtype)
print(probs32[0])
