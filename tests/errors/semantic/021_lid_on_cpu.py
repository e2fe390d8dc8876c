# expect: 4:12: LID_0 is only available in low-level kernels
@annotate(i='int', x='doublep')
def f(i, x):
    x[i] = LID_0
