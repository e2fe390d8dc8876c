# expect: 4:9: strings are only allowed as arguments
@annotate(i='int', x='doublep')
def f(i, x):
    s = 'hello'
