# for over range with an unpacking target, break/continue, an else clause and nesting
import mars.tensor as mt
for i, j in enumerate(range(3)):
    if i: continue
    for k in [1, 2]:
        print(mt.ones(i) * k)
        break
else:
    print("done")
