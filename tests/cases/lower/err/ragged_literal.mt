# a nested list whose rows differ in length -> error: tensor literal is ragged: row 1 has 1 element, expected 2
import mars.tensor as mt
print(mt.tensor([[1, 2], [3]]))
