# expect: 4:17: a double value cannot be stored in an element of 'k', which is int; convert it explicitly with int(...)
@annotate(i='int', x='doublep', k='intp')
def f(i, x, k):
    k[i] = x[i] / 2
