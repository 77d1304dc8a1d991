# from ... import is not in version 1
from mars import tensor as mt
