# importing a module other than mars.tensor or numpy -> error: unknown module `pandas`
import pandas as pd
print(pd.ones(3))
