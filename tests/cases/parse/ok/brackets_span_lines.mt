# newlines inside (), [] and {} brackets are not statement ends
import mars.tensor as mt
data = mt.tensor([
    [1, 2, 3],
    [4, 5, 6],
], chunks=(
    1,
    3,
))
result = mt.where(
    data > 2,
    data,
    0,
)
print(result)
