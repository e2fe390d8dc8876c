# Compyle documentation, "Using Compyle", "Scan", unique elements, as written. Restored where the
# page's text is cut: `len(ary.data)` in the first line, the `else:` before `return 0`, and the
# pulls at the end (`unique_ary.pull()`, `unique_count.pull()`, `.data`).
from smelt.api import Scan, annotate, wrap
import numpy as np

ary = np.random.randint(0, 100, 1000, dtype=np.int32)
unique_ary = np.zeros(len(ary.data), dtype=np.int32)
unique_ary = wrap(unique_ary, backend=backend)
unique_count = np.zeros(1, dtype=np.int32)
unique_count = wrap(unique_count, backend=backend)
ary = wrap(ary, backend=backend)

@annotate(i='int', ary='intp', return_='int')
def input_expr(i, ary):
    if i == 0 or ary[i] != ary[i - 1]:
        return 1
    else:
        return 0

@annotate(int='i, prev_item, item, N', ary='intp',
          unique='intp', unique_count='intp')
def output_expr(i, prev_item, item, N, ary, unique, unique_count):
    if item != prev_item:
        unique[item - 1] = ary[i]
    if i == N - 1:
        unique_count[0] = item

scan = Scan(input_expr, output_expr, 'a+b', dtype=np.int32, backend=backend)
scan(ary=ary, unique=unique_ary, unique_count=unique_count)
unique_ary.pull()
unique_count.pull()
unique_count = unique_count.data[0]
unique_ary = unique_ary.data[:unique_count]

# Result = unique_ary
