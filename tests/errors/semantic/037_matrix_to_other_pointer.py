# expect: 10:12: a local array (matrix(2)) cannot be passed to parameter 'out' of 'put'
@annotate(v='int', out='intp')
def put(v, out):
    out[0] = v

@annotate(i='int', x='doublep')
def f(i, x):
    tmp = declare('matrix(2)')
    x[i] = tmp[1]
    put(1, tmp)
