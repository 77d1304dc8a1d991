# deeply nested calls and expressions as arguments
import mars.tensor as mt
x = mt.linspace(-1, 1, 9)
y = mt.where(mt.abs(x) > 0.5, mt.sqrt(mt.abs(x)), mt.clip(x * 2, -0.5, 0.5))
z = mt.maximum(mt.minimum(y, 0.9), mt.negative(mt.ones_like(y) * 0.9))
print(mt.stack([x, y, z], axis=0)[..., ::-1])
