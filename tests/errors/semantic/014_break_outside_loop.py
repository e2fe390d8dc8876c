# expect: 5:9: 'break' outside a loop
@annotate(i='int', x='doublep')
def f(i, x):
    if i > 0:
        break
