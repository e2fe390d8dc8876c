# expect: 4:20: range() needs integer arguments
@annotate(i='int', x='doublep')
def f(i, x):
    for j in range(x[i]):
        x[i] += 1.0
