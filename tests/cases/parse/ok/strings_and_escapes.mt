# single, double, raw and triple-quoted strings; escapes; adjacent strings join
print('single', "double")
print('it\'s', "say \"hi\"", 'tab\there', "new\nline", 'back\\slash')
print('\x41\u00e9\U0001F600\101\0', "\a\b\f\v\r")
print(r'raw\n', R"also\traw")
print("""triple
quoted""", '''with 'quotes' inside''')
print('adjacent ' "strings " 'join')
print('', "", 'é ü ß 数')
