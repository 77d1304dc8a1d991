# astype(casting='safe') refuses a cast that can lose information -> error: Cannot cast array data from dtype('int64') to dtype('float32') according to the rule 'safe'
import mars.tensor as mt
print(mt.arange(3).astype(mt.float32, casting="safe"))
