# `!` is not an operator; `~` or `not` is
x = !True
