# expect: 4:10: has 1 dimension but 2 indices were given
@annotate(i='int', x='doublep')
def f(i, x):
    x[i][0] = 1.0
