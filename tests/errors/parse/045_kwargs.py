# expect: 6:18: **options (variable keyword arguments) is not supported in kernels
from smelt import annotate


@annotate
def kernel(i, x, **options):
    x[i] = 2.0 * x[i]
