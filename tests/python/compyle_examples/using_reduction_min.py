# Compyle documentation, "Using Compyle", "Reduction", second example (minimum) as written.
from smelt.api import Reduction, wrap
import numpy as np

x = np.linspace(0, 1, 1000)/1000
x = wrap(x, backend=backend)

r = Reduction('min(a, b)', neutral='INFINITY', backend=backend)
result = r(x)
