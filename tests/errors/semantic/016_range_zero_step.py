# expect: 4:27: range() step must not be zero
@annotate(i='int', x='doublep')
def f(i, x):
    for j in range(0, 10, 0):
        x[i] += 1.0
