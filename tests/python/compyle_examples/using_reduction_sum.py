# Compyle documentation, "Using Compyle", "Reduction", first example (sum) as written; `backend`
# and the imports are the documentation's context (given by the test).
from smelt.api import Reduction, wrap
import numpy as np

x = np.linspace(0, 1, 1000)/1000
x = wrap(x, backend=backend)

r = Reduction('a+b', backend=backend)
result = r(x)
