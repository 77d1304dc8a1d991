# k-means clustering: Lloyd's iterations until the centroids stop moving. The
# `while` is steered by a tensor's value, so the script runs in stages: each test
# of `shift` computes what it needs, reusing what earlier iterations computed.
import mars.tensor as mt

# Three blobs of 2-D points, made without random numbers so the answer is exact.
n = 3000
t = mt.arange(n, chunks=1000)
blob = t % 3
angle = t * 0.7
radius = (t % 7) / 7.0 + (t % 11) / 22.0
points = mt.stack(
    [blob * 1.5 + 2 * radius * mt.cos(angle), (blob % 2) * 1.2 + 2 * radius * mt.sin(angle)],
    axis=1,
)

k = 3
centroids = mt.array([[2.0, 2.5], [2.5, 0.0], [3.0, 1.0]])   # a poor start
shift = 1.0
iterations = 0
while shift > 1e-12 and iterations < 100:
    distances = ((points[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    labels = distances.argmin(axis=1)
    members = [labels == j for j in range(k)]
    updated = mt.stack(
        [(points * m[:, None]).sum(axis=0) / m.sum() for m in members]
    )
    shift = float(mt.abs(updated - centroids).max())
    centroids = updated
    iterations += 1

print("converged after", iterations, "iterations")
print(centroids)
print("cluster sizes:", [int(m.sum()) for m in members])
print("inertia:", round(float(distances.min(axis=1).sum()), 6))
