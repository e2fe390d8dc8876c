# Recursive functions with a declared return type: factorial (64-bit), Euclid's gcd with
# Python's % on negative operands, Fibonacci.
from smelt import *


@annotate(n='long', return_='long')
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@annotate(a='int', b='int', return_='int')
def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


@annotate(n='int', return_='long')
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


# smelt-test: kernel=k n=60 rejected_on=opencl
# smelt-arg: a int32 ints -5000 5000
# smelt-arg: b int32 ints -300 300
# smelt-arg: out int64 zeros size=3n


@annotate(i='int', a='intp', b='intp', out='longp')
def k(i, a, b, out):
    out[3 * i] = fact(i % 21)
    out[3 * i + 1] = gcd(a[i], b[i])
    out[3 * i + 2] = fib(i % 16)
