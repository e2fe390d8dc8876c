# Compyle documentation, "Low level functionality", "Kernel" with local memory, as written; only
# the imports changed (the page's own import line is cut after `local_barrier`). Needs OpenCL.
from smelt.api import annotate, get_config, wrap
from smelt.low_level import (
    Kernel, LID_0, LDIM_0, GID_0, LocalMem, local_barrier
)
import numpy as np

@annotate(gdoublep='x',  ldoublep='xl')
def f(x, xl):
    i, thread_id = declare('int', 2)
    thread_id = LID_0
    i = GID_0*LDIM_0 + thread_id

    xl[thread_id] = x[i]

x = np.linspace(0, 1, 10000)

get_config().use_opencl = True
x = wrap(x)
xl = LocalMem(1)

k = Kernel(f)
k(x, xl)
