# a loop that never ends is stopped while compiling -> error: loops ran more than 1000000 iterations while compiling
n = 0
while n >= 0:
    n += 1
