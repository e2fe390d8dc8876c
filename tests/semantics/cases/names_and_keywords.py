# Python names that are C/C++/OpenCL keywords or library names (new, this, switch, case, auto,
# register, unsigned, sizeof, NULL, main), names like the compiler's own loop helpers (v_it,
# v_stop), a leading underscore, and locals named like math constants (e, pi) all keep their
# Python meaning.
from smelt import *


@annotate(a='int', return_='int')
def main(a):
    return a * 3


@annotate(a='int', return_='int')
def rand(a):
    return a + 1


# smelt-test: kernel=k n=30
# smelt-arg: new int32 ints -5 5
# smelt-arg: this float64 floats -1 1
# smelt-arg: out float64 zeros


@annotate(i='int', new='intp', this='doublep', out='doublep')
def k(i, new, this, out):
    switch = new[i]
    case = 2
    auto = switch + case
    register = 0
    unsigned = 1.5
    sizeof = rand(auto)
    v_it = 100
    for v in range(3):
        v_it += v
    v_stop = 7
    for v in range(0, v_stop, new[i] % 3 + 1):
        register += v
    _x = 1
    NULL = 4
    e = 3
    pi = 2
    out[i] = this[i] * 2 + unsigned + sizeof + v_it * 10 + register * 100 + _x + NULL + e + pi + main(auto)
