# f-strings and str.format (issue 19): specs, conversions, `=`, tensors formatted from a stage as NumPy does
import mars.tensor as mt
x = mt.arange(10, chunks=3)
n = 5
pi = 3.14159265
print(f"n={n}, pi={pi:.3f}, {pi:10.2e}|{n:>4}|{n:<4}|{'ab'!r}")
print(f"sum {x.sum()} mean {x.mean():.2f} arr {x[:3]} {x[:3]!r}")
print(f"{n=} {pi = :.1f} {{literal}} {x.sum()=}")
s = x.astype(mt.float32).sum() / 7
print(f"{s} {s:.4f} {(x > 3).any()} {x.dtype} {x.shape}")
print("plain" f"-{n}-" 'tail')
print(f'''triple {n + 1}''', rf"raw\n{n}")
d = None
print(f"{d} {[1, 2]} {(1, 'a')} {n:,} {1234567.891:,.2f} {0.5:%}")
x = mt.arange(6, chunks=4)
print("total: {}".format(3))
print("{} + {} = {:.2f} {{ok}}".format(1, 2.5, 3.5))
print("{1}-{0}-{1!r}".format("a", "b"))
print("{name:>6}|{n:04d}|{v}".format(name="ab", n=7, v=x.sum()))
print("mean {m:.3f} of {x}".format(m=x.mean(), x=x))
fmt = "{:>8.3e}"
print(fmt.format(12345.678))
