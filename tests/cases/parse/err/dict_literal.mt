# dict and set literals are not in version 1
options = {"chunks": 2}
