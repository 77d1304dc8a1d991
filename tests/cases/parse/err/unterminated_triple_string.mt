# a triple-quoted string that runs to the end of the file
import mars.tensor as mt
doc = """this never ends
print(doc)
