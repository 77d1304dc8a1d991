# concatenate(dtype=) casts its inputs under casting='same_kind' by default, so float64 to int32 is refused -> error: Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'
import mars.tensor as mt
a = mt.ones((2, 3))
print(mt.concatenate([a, a], dtype=mt.int32))
