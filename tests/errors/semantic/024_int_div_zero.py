# expect: 4:17: integer division by zero
@annotate(i='int', x='intp')
def f(i, x):
    x[i] = x[i] // 0
