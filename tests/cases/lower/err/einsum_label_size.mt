# einsum's operands must agree on each label's length -> error at the operand: size of label 'j' for operand 1 (4) does not match previous terms (3).
import mars.tensor as mt
print(mt.einsum("ij,jk->ik", mt.ones((2, 3)), mt.ones((4, 5))))
