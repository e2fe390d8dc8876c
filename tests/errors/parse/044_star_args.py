# expect: 6:18: *rest (variable positional arguments) is not supported in kernels
from smelt import annotate


@annotate
def kernel(i, x, *rest):
    x[i] = 2.0 * x[i]
