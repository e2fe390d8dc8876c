@annotate(i='int', u='uintp', l='longp', c='charp', f='floatp')
def casts(i, u, l, c, f):
    u[i] = (u[i] << 3) ^ (u[i] >> 1) | 7
    l[i] = int(f[i]) + cast(u[i], 'long') - ~l[i]
    c[i] = c[i] + 1
    f[i] = float(i) / 3 + f[i] * 0.5 + sqrt(f[i])
    if isnan(f[i]) or c[i] == 0:
        f[i] = 0.0
