# return outside a function -> error: `return` outside a function
return 1
