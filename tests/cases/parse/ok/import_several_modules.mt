# one import statement may name several modules, each with its alias, as in Python
import numpy as np, mars.tensor as mt
import mars.tensor
