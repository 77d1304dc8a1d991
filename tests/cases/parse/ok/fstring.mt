# f-strings: text, fields with conversion and spec, `{x=}`, next to a plain string
x = 3
s = f"a{x!r:>4}b{x=}" "c"
