# identifiers and strings beyond ASCII
import mars.tensor as mt
σ = mt.random.randn(100).std()
données = mt.ones(3)
print("σ =", σ, données)
