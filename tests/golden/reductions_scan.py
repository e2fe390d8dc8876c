# Map and scan functions as Reduction and Scan use them (types given as a primitive would).
@annotate(i='int', x='doublep', return_='double')
def sq(i, x):
    return x[i] * x[i]


@annotate(i='int', ary='intp', return_='int')
def input_expr(i, ary):
    return ary[i]


@annotate(int='i, item, prev_item, last_item', ary='intp', out='intp')
def output_expr(i, item, prev_item, last_item, ary, out):
    out[i] = item - prev_item + last_item * 0
