# expect: 5:5: 's' is a LOCAL_MEM float, a number, which cannot be indexed
@annotate(x='floatp')
def f(x):
    s = declare('LOCAL_MEM float')
    s[0] = 1.0
    x[0] = s
