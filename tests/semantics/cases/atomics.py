# Atomics return the old value and update the element: a histogram (many work items per bin),
# a 64-bit sum, a decrementing counter, and slots owned by one work item whose old values are
# deterministic.
from smelt import *

# smelt-test: kernel=k n=200
# smelt-arg: a int32 ints -100 100
# smelt-arg: hist int32 zeros size=208
# smelt-arg: total int64 fill 5
# smelt-arg: down uint32 fill 1000 size=4
# smelt-arg: own int32 iota


@annotate(i='int', a='intp', hist='intp', total='longp', down='uintp', own='intp')
def k(i, a, hist, total, down, own):
    atomic_inc(hist[a[i] % 8])
    atomic_add(total[0], a[i])
    atomic_dec(down[i % 4])
    old = atomic_inc(hist[8 + i])
    prev = atomic_add(own[i], 10 * a[i])
    own[i] = own[i] * 1000 + old * 100 + prev
