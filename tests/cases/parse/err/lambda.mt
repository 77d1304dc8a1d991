# lambda is not in the language -> error: `lambda` is not supported; help: def
f = lambda x: x + 1
