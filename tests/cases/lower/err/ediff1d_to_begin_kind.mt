# ediff1d of ints with a float to_begin (not same-kind castable) -> error: dtype of `to_begin` must be compatible with input `ary` under the `same_kind` rule.
import mars.tensor as mt
print(mt.ediff1d(mt.arange(5), to_begin=0.5))
