# Python's builtins on Python values fold at compile time with Python's rules (not mt.max & co)
import mars.tensor as mt
n = 5
print(max(n - 10, 0), min(n - 10, 0), max(2, 3.0), max(3, 3.0), min(True, 0), max([1, 7, 3]), min((4, -2, 9)))
print(max([], default=-1), max("banana"), max(1, 2, key=None))
print(sum([1, 2.5, True]), sum((1, 2), 10), sum([]), sum([], start=3), sum([0.1, 0.2, 0.3]))
print(abs(-3), abs(-0.0), abs(True), abs(-2.5))
print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(15, -1), round(25, -1), round(7, 2), round(True), round(-0.4, 0))
print(pow(2, 10), pow(2, -1), pow(2, 0.5), pow(2, 10, 1000), pow(-2, 3, 5), pow(7, 2, -5))
print(divmod(7, 2), divmod(-7, 2), divmod(7.5, 2))
print(all([1, 2, 3]), all([1, 0]), all([]), any([0, 0.0, False]), any([0, 3]), any(()), all("abc"))
print(len([1, 2, 3]), len("mars"), len((1,)))
