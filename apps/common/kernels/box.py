"""Box geometry kernels shared by the apps: minimum image, wrapping, image counts.

Kernel-language device functions (docs/LANGUAGE.md). The box is [0, L) along every axis.
`periodic` arguments of these functions are per-axis flags: 0 = not periodic, anything else =
periodic (3D callers pass `periodic & 1`, `periodic & 2`, `periodic & 4` of their axis mask;
see axis_periodic).

In CPython, put python/ (the smelt package) and apps/common/kernels on sys.path.
"""

from math import floor, inf

from smelt import annotate, declare


@annotate(double='d, length', return_='double')
def min_image(d, length):
    """The periodic image of a separation d closest to zero: result in [-length/2, length/2)."""
    return d - length * floor(d / length + 0.5)


@annotate(double='a, b, length', periodic='int', return_='double')
def pair_delta(a, b, length, periodic):
    """a - b along one axis, minimum-imaged when the axis is periodic."""
    if periodic != 0:
        return min_image(a - b, length)
    return a - b


@annotate(length='double', periodic='int', return_='double')
def half_length(length, periodic):
    """The `half` argument of min_image_wrapped: length/2 on a periodic axis, infinity on one
    that is not (no image is then ever taken)."""
    if periodic != 0:
        return 0.5 * length
    return inf


@annotate(double='d, length, half', return_='double')
def min_image_wrapped(d, length, half):
    """The periodic image of d = a - b closest to zero, for a and b wrapped into [0, length)
    (so |d| < length): one compare and select per side, no division or floor, and branch free,
    so a loop over pairs vectorises. `half` is half_length(length, periodic): length/2 gives a
    result in [-length/2, length/2); infinity returns d unchanged (an axis with walls)."""
    e = declare('double')
    e = d - length if d >= half else d
    return e + length if e < -half else e


@annotate(double='a, length', return_='double')
def wrap_coord(a, length):
    """a mapped into [0, length). The guards catch rounding: a = -1e-17 would give exactly length."""
    w = declare('double')
    w = a - length * floor(a / length)
    if w < 0.0:
        w = w + length
    if w >= length:
        w = w - length
    return w


@annotate(double='a, length', return_='int')
def image_shift(a, length):
    """The k with wrap_coord(a, length) + k * length == a (up to rounding).

    The same arithmetic and guards as wrap_coord, so a wrap and its image count always agree:
    a = -1e-17 wraps to 0.0 with k = 0, not to 0.0 with k = -1.
    """
    f, w = declare('double', 2)
    k = declare('int')
    f = floor(a / length)
    w = a - length * f
    k = int(f)
    if w < 0.0:
        w = w + length
        k -= 1
    if w >= length:
        k += 1
    return k


@annotate(i='int', x='doublep', img='intp', length='double')
def wrap_axis(i, x, img, length):
    """x[i] wrapped into [0, length); img[i] counts the box lengths removed (unwrapped =
    x[i] + img[i] * length).

    A coordinate already in [0, length) is left as it is, without the division and floor: that
    is what wrap_coord and image_shift give it (a, and 0), and it is nearly every particle of
    every step (the integrators wrap after each drift, and few particles cross the box's faces
    in one step). The test is one well-predicted branch instead of a division per axis. (-0.0
    stays -0.0, where wrap_coord gives +0.0: the same position.)"""
    a = declare('double')
    a = x[i]
    if a >= 0.0 and a < length:
        return
    img[i] += image_shift(a, length)
    x[i] = wrap_coord(a, length)


@annotate(int='periodic, axis', return_='int')
def axis_periodic(periodic, axis):
    """1 when bit `axis` of the periodicity mask is set (bit 0 = x, 1 = y, 2 = z), else 0."""
    return (periodic >> axis) & 1
