# Atomics on every 32- and 64-bit element type; each returns the value before the update.
@annotate(i='int', counts='intp', totals='longp', fsum='floatp', dsum='doublep', u='uintp',
          slot='intp')
def tally(i, counts, totals, fsum, dsum, u, slot):
    slot[i] = atomic_inc(counts[0])
    atomic_dec(counts[1])
    atomic_add(totals[i % 4], i * 3)
    atomic_add(fsum[0], 0.5)
    atomic_add(dsum[0], 0.25)
    atomic_inc(u[0])
