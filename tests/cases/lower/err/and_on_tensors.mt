# `and` between tensors -> error: `and` cannot be used on tensors; help: use `&` (with parentheses around comparisons)
import mars.tensor as mt
x = mt.arange(5)
print((x > 1) and (x < 4))
