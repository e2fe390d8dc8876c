# Three kernels with mistakes `smelt check` must each report at its line and column.


@annotate(i='int', x='doublep')
def uses_undefined(i, x):
    x[i] = y + 1.0


@annotate(i='int', x='doublep')
def list_literal(i, x):
    v = [1, 2]
    x[i] = 0.0


@annotate(i='int', x='intp')
def float_into_int(i, x):
    k = 1
    k = 2.5
    x[i] = k
