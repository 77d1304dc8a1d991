# one name per assignment
a = b = 1
