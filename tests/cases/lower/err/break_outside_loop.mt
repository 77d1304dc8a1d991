# break outside a loop -> error: `break` outside a loop
x = 1
break
