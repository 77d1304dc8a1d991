# a string chunk spec other than "auto" -> error: invalid chunks: "big" (the only string accepted is "auto")
import mars.tensor as mt
print(mt.ones(8, chunks="big"))
