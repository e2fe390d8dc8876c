# expect: 4:17: LOCAL_MEM is only available
@annotate(i='int', x='doublep')
def f(i, x):
    m = declare('LOCAL_MEM matrix(64)')
