# comments on their own lines, after code, and inside brackets
import mars.tensor as mt  # the library


# blank lines above and below

x = mt.arange(4)  # a range
y = mt.concatenate([  # open bracket
    x,  # first
    # a comment line inside the bracket
    x * 2,
])
print(y)  # done
# trailing comment
