# `x[f()] += v` evaluates the index f() once in Python (the element is read and written at the
# same place). bump() counts its calls in `calls`.
from smelt import *


@annotate(calls='intp', j='int', ret='int', return_='int')
def bump(calls, j, ret):
    calls[j] += 1
    return ret


# smelt-test: kernel=k n=64
# smelt-arg: calls int32 zeros size=3n
# smelt-arg: acc int32 iota size=3n


@annotate(i='int', calls='intp', acc='intp')
def k(i, calls, acc):
    acc[bump(calls, 3 * i, 3 * i)] += 5
    acc[bump(calls, 3 * i + 1, 3 * i + 1)] *= 3
    acc[bump(calls, 3 * i + 2, 3 * i + 2)] //= 2
