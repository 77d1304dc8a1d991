# *args in a def -> error: not supported yet: `*args`, `**kwargs` and keyword-only parameters
def f(a, *rest):
    return a
