# backslash continuation joins physical lines into one statement
import mars.tensor as mt
total = mt.ones(5).sum() + \
    mt.zeros(5).sum() + \
        mt.arange(5).sum()
print(total)
