# partition's kind is only NumPy's introselect -> error: select kind must be 'introselect' (got 'quick')
import mars.tensor as mt
x = mt.arange(5)
x.partition(1, kind="quick")
