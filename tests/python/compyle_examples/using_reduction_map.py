# Compyle documentation, "Using Compyle", "Reduction", third example (with a map function) as
# written.
from smelt.api import Reduction, annotate, wrap
import numpy as np

from math import cos, sin
x = np.linspace(0, 1, 1000)/1000
y = x.copy()
x, y = wrap(x, y, backend=backend)

@annotate(i='int', doublep='x, y')
def map(i=0, x=[0.0], y=[0.0]):
    return cos(x[i])*sin(y[i])

r = Reduction('a+b', map_func=map, backend=backend)
result = r(x, y)
