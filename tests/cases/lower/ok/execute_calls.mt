# .execute() returns its tensor, so Mars-style scripts run unchanged (also mid-expression and on 0-d results)
import mars.tensor as mt
a = mt.ones(100, chunk_size=10)
b = mt.arange(100, chunk_size=25)
c = (a + b).sum()
print(c.execute())
d = (a * 2).execute() + b.execute()
print(d.execute().shape, d.mean().execute(), d[:3].execute())
a.execute()
