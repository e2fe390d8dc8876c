# expect: 4:13: a double value cannot be stored in an element of 'k', which is int; convert it explicitly with int(...)
@annotate(i='int', k='intp')
def f(i, k):
    k[i] += 0.5
