# expect: 4:5: declare() makes 3 variables but 2 names are assigned
@annotate(i='int', x='doublep')
def f(i, x):
    a, b = declare('int', 3)
