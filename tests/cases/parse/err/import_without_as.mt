# an alias needs `as`
import numpy np
