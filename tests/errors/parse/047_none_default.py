# expect: 6:17: None is not supported in kernels
from smelt import annotate


@annotate
def kernel(i, x=None):
    x[i] = 2.0 * x[i]
