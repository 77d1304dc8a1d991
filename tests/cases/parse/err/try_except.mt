# try/except is not in version 1
try:
    x = 1
except:
    x = 2
