@annotate(a='double', b='double', return_='double')
def dist2(a, b):
    return a * a + b * b


def scaled(v, f):
    # No annotations: specialised for each distinct argument-type list (JIT).
    return v * f


@annotate(i='int', x='floatp', y='doublep')
def kernel(i, x, y):
    m = declare('matrix((2, 3))')
    c, d = declare('int', 2)
    for r in range(2):
        for k in range(3):
            m[r][k] = x[i] * r + k
    c = i % 3
    d = abs(c - 5)
    y[i] = dist2(m[1][2], y[i]) + scaled(x[i], 2.0) + scaled(d, 3) + min(c, d, 7) + max(x[i], 0.5)
