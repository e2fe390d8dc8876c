# expect: 2:28: 'y' is not a parameter of 'f'
@annotate(i='int', doublep='x, y')
def f(i, x):
    x[i] = 1.0
