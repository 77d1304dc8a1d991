# var and std with the default ddof=0, ddof=1 and a float ddof, over all axes and one axis
import mars.tensor as mt
x = mt.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
print(x.var(), x.std(), x.var(ddof=1), mt.std(x, ddof=1))
print(x.var(axis=0), x.std(axis=1, ddof=1), mt.var(x, axis=1, keepdims=True))
print(x.var(ddof=0.5), mt.std(mt.arange(10), ddof=2))
