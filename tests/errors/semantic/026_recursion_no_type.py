# expect: 6:16: needs a declared return type
@annotate(n='int')
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

@annotate(i='int', x='intp')
def f(i, x):
    x[i] = fact(x[i])
