# expect: 6:17: a list default value must have exactly one element
from smelt import annotate


@annotate
def kernel(i, x=[0.0, 0.0]):
    x[i] = 2.0 * x[i]
