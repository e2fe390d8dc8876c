# Held back from cases/ because the engine hangs on it (an endless loop choosing C names for
# identifiers C reserves: a leading "__", or "_" and a capital). CPython runs it; move it into
# cases/ once the engine compiles it, so the suite checks the meaning too.
from smelt import *

# smelt-test: kernel=k n=20
# smelt-arg: x int32 ints -100 100
# smelt-arg: out int64 zeros


@annotate(i='int', x='intp', out='longp')
def k(i, x, out):
    __y = x[i] * 2
    _Z = 3
    out[i] = __y + _Z
