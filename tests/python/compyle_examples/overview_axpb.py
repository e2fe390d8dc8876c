# Compyle documentation, "An overview", "Simple example", as written; only the import changed
# (compyle.api -> smelt.api).
from smelt.api import Elementwise, annotate, wrap, get_config
import numpy as np

@annotate(i='int', x='doublep', y='doublep', double='a,b')
def axpb(i, x, y, a, b):
    y[i] = a*sin(x[i]) + b

x = np.linspace(0, 1, 10000)
y = np.zeros_like(x)
a = 2.0
b = 3.0

backend = 'cython'
get_config().use_openmp = True
x, y = wrap(x, y, backend=backend)
e = Elementwise(axpb, backend=backend)
e(x, y, a, b)
