# expect: 2:22: unknown type 'doubel'
@annotate(i='int', x='doubel')
def f(i, x):
    x = 1
