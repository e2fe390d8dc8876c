# expect: 4:17: an integer raised to a negative power
@annotate(i='int', x='intp')
def f(i, x):
    x[i] = x[i] ** -1
