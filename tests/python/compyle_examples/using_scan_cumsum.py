# Compyle documentation, "Using Compyle", "Scan", cumulative sum. The page's text is cut after
# `dtype=np.int32,`; the rest is Compyle's documented form (backend=backend; scan(ary=ary);
# ary.pull(); result = ary.data).
from smelt.api import Scan, annotate, wrap
import numpy as np

ary = np.arange(10000, dtype=np.int32)
ary = wrap(ary, backend=backend)

@annotate(i='int', ary='intp', return_='int')
def input_expr(i, ary):
    return ary[i]

@annotate(int='i, item', ary='intp')
def output_expr(i, item, ary):
    ary[i] = item

scan = Scan(input_expr, output_expr, 'a+b', dtype=np.int32,
            backend=backend)
scan(ary=ary)
ary.pull()

# Result = ary.data
