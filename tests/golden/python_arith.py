# Python's meanings of /, //, % and ** on ints and floats, weak literals, chained comparisons.
@annotate(i='int', intp='a, b, q, r', doublep='x, y, fq, fr', return_='int')
def arith(i, a, b, q, r, x, y, fq, fr):
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]
    fq[i] = x[i] // y[i]
    fr[i] = x[i] % y[i] + a[i] / b[i]
    y[i] = x[i] ** 2 + 2 ** 3 * x[i]
    if 0 <= a[i] < b[i] and not x[i] > 1.5:
        return 1
    return a[i] * 2
