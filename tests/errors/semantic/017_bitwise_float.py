# expect: 4:17: needs integer operands
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = x[i] & 3
