# expect: 6:5: return paths disagree in type
@annotate(a='int')
def g(a):
    if a > 0:
        return a
    return 1.5 * a

@annotate(i='int', x='intp')
def f(i, x):
    x[i] = g(x[i])
