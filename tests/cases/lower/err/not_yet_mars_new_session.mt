# a real Mars name marsc lacks is not supported yet rather than an unknown attribute -> error: not supported yet: mars.new_session
import mars
import mars.tensor as mt
x = mt.ones(3)
mars.new_session()
