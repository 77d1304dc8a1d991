# `;` separates statements on one line; a trailing `;` is allowed
import mars.tensor as mt; import numpy as np
a = mt.ones(3); b = a * 2; print(a, b)
c = b - a;
print(c);
