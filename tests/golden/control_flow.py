N_MAX = 10
SCALE = 2.5 * 2


@annotate(n='int', step='int', x='doublep', return_='double')
def loops(n, step, x):
    s = 0.0
    for k in range(n, 0, -1):
        s += x[k]
    for k in range(0, n, step):
        if k > N_MAX:
            break
        elif k % 2 == 0:
            continue
        s -= x[k] * SCALE
    j = declare('int')
    while True:
        j += 1
        if j >= n:
            break
    return s if s > 0 else -s
