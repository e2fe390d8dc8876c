"""vortex physics: 2D point vortices and vortex blobs, written in Smelt's kernel language.

Every function here is a kernel or a device function that the vortex driver compiles through
the engine (cpu / OpenCL / CUDA). The file is also valid Python: run element by element on NumPy
arrays it is the reference the tests compare against (tests/apps/vortex_physics_check.py).
apps/vortex/README.md has the equations, the kernel table and the driver's step sequences.

Conventions (the driver relies on them):
- Structure-of-arrays state of N vortices: x, y (positions), gamma (circulations), u, v
  (velocities), double arrays of length N; precision is switched by the engine.
- u_k = -(1/2pi) sum_j gamma_j (y_k - y_j) K(r^2),  v_k = (1/2pi) sum_j gamma_j (x_k - x_j) K(r^2)
  with K = 1/r^2 (point vortices), 1/(r^2 + delta^2) (Krasny blob) or
  (1 - exp(-r^2/delta^2))/r^2 (Gaussian blob). `regularisation` is POINT, KRASNY or GAUSSIAN.
- Periodic in x with period L when `periodic` != 0: the closed-form sum over the row of images
  (cot kernel); Krasny's blob then uses Krasny's (1986) periodic kernel, where delta^2 is added
  to cosh - cos and delta is dimensionless (see row_factor).
- A vortex never moves itself: every pair term vanishes at zero separation (dx = dy = 0), so the
  sums need no test j != i and the tiled kernel needs no source indices.
- An elementwise kernel is `f(i, ...)` over the length of its FIRST array argument (x: N).
- `velocity_tiled` is a low-level Kernel (OpenCL / CUDA): LID_0, GID_0, LDIM_0 and
  local_barrier() are the engine's work-item names. In CPython they are not defined in this
  module; the tests run that kernel through an emulator that supplies them per work-item.
"""

from math import exp, expm1, floor, log, pi, sin, sinh

from smelt import annotate, declare

# Regularisations (the `regularisation` argument of every kernel that evaluates the kernel K).
POINT = 0
KRASNY = 1
GAUSSIAN = 2

# Compile-time choice of the velocity kernel's case. -1 (as written here, and always in CPython):
# `velocity` takes `regularisation` and `periodic` from its arguments. The driver compiles it with
# these set to the run's values (smelt::ProgramOptions::constants), so the C++ compiler drops the
# other cases' branches from the pair loop and can vectorise it (apps/vortex/README.md,
# "Benchmark"); the arguments it passes are the same values, so the result is the same.
FIXED_REGULARISATION = -1
FIXED_PERIODIC = -1

# Euler-Mascheroni constant (E1 series).
EULER_GAMMA = 0.57721566490153286061

# The periodic kernel clamps |2 pi dy / L| here: beyond it sinh(b)/(cosh b - cos a) equals
# sign(b) to within 2 exp(-40) ~ 1e-17, and sinh(b)^2 stays finite in single precision.
ROW_B_MAX = 40.0

# Below this z = r^2/delta^2 the Gaussian factor (1 - exp(-z))/z is its Taylor series (5 terms,
# truncation z^5/720 < 2e-18), so z -> 0 and r = 0 need no division.
GAUSS_SERIES_Z = 1e-3

# cot(w) - 1/w = -sum_k COT_k w^(2k-1), COT_k = 2^(2k) |B_2k| / (2k)! (Bernoulli numbers). Used
# for |w| = pi r / L < pi/8, where ten terms leave less than (1/8)^20 ~ 1e-18 relative.
COT_1 = 1.0 / 3.0
COT_2 = 1.0 / 45.0
COT_3 = 2.0 / 945.0
COT_4 = 1.0 / 4725.0
COT_5 = 2.0 / 93555.0
COT_6 = 1382.0 / 638512875.0
COT_7 = 4.0 / 18243225.0
COT_8 = 3617.0 / 162820783125.0
COT_9 = 87734.0 / 38979295480125.0
COT_10 = 349222.0 / 1531329465290625.0

# E1 / Ein: power series below this z, continued fraction from it on.
E1_SERIES_Z = 1.0
E1_EPS = 1e-17
E1_MAX_TERMS = 200


# ---------------------------------------------------------------------------------------------
# Exponential integral (Gaussian blob stream function).
# ---------------------------------------------------------------------------------------------

@annotate(z='double', return_='double')
def ein_series(z):
    """Ein(z) = int_0^z (1 - exp(-t))/t dt = sum_{n>=1} (-1)^(n+1) z^n / (n n!), for 0 <= z < 1.

    Ein is entire and E1(z) = Ein(z) - gamma - log z; below z = 1 the alternating terms never
    exceed z, so the sum loses nothing to cancellation.
    """
    s, term = declare('double', 2)
    n = declare('int')
    term = z
    s = z
    n = 1
    while n < E1_MAX_TERMS:
        term = -term * z * n / ((n + 1.0) * (n + 1.0))
        s += term
        n += 1
        if abs(term) <= E1_EPS * abs(s):
            break
    return s


@annotate(z='double', return_='double')
def exp1_cf(z):
    """E1(z) for z >= 1 by its continued fraction

        E1(z) = exp(-z) / (z + 1 - 1/(z + 3 - 4/(z + 5 - 9/(z + 7 - ...))))

    evaluated with the modified Lentz method (Numerical Recipes 6.3, expint with n = 1); it
    converges in at most ~40 terms for z >= 1. exp(-z) underflows to 0 past z ~ 745 (E1 is then
    below the smallest double anyway).
    """
    b, c, d, h, dl, an = declare('double', 6)
    i = declare('int')
    b = z + 1.0
    c = 1e30
    d = 1.0 / b
    h = d
    i = 1
    while i < E1_MAX_TERMS:
        an = -1.0 * i * i
        b += 2.0
        d = 1.0 / (an * d + b)
        c = b + an / c
        dl = c * d
        h = h * dl
        i += 1
        if abs(dl - 1.0) <= E1_EPS:
            break
    return h * exp(-z)


@annotate(z='double', return_='double')
def exp1(z):
    """The exponential integral E1(z) = int_z^inf exp(-t)/t dt for z > 0 (relative error ~1e-15)."""
    if z < E1_SERIES_Z:
        return ein_series(z) - EULER_GAMMA - log(z)
    return exp1_cf(z)


@annotate(double='s, delta', return_='double')
def log_plus_exp1(s, delta):
    """log(s) + E1(s / delta^2), finite at s = 0: the Gaussian blob's pair stream function.

    = log(delta^2) - gamma + Ein(z) with z = s/delta^2; at s = 0 it is log(delta^2) - gamma.
    """
    z = declare('double')
    z = s / (delta * delta)
    if z < E1_SERIES_Z:
        return log(delta * delta) - EULER_GAMMA + ein_series(z)
    return log(s) + exp1_cf(z)


# ---------------------------------------------------------------------------------------------
# Pair kernels.
# ---------------------------------------------------------------------------------------------

@annotate(int='value, fixed', return_='int')
def fixed_or(value, fixed):
    """`fixed` when it was set at compile time (>= 0: FIXED_REGULARISATION, FIXED_PERIODIC),
    else the run-time `value`."""
    if fixed >= 0:
        return fixed
    return value


@annotate(double='r2, delta', regularisation='int', return_='double')
def velocity_factor(r2, delta, regularisation):
    """K(r^2): the pair velocity is gamma_j K (-(y_k - y_j), x_k - x_j) / (2 pi).

    point: 1/r^2 (0 at r = 0, the self term); Krasny: 1/(r^2 + delta^2);
    Gaussian: (1 - exp(-r^2/delta^2))/r^2, by its series near r = 0 (limit 1/delta^2).
    """
    z = declare('double')
    if regularisation == KRASNY:
        return 1.0 / (r2 + delta * delta)
    if regularisation == GAUSSIAN:
        z = r2 / (delta * delta)
        if z < GAUSS_SERIES_Z:
            return (1.0 - 0.5 * z * (1.0 - z / 3.0 * (1.0 - 0.25 * z * (1.0 - 0.2 * z)))) / (
                delta * delta)
        return -expm1(-z) / r2
    if r2 > 0.0:
        return 1.0 / r2
    return 0.0


@annotate(double='r2, delta', return_='double')
def gaussian_tail_factor(r2, delta):
    """exp(-r^2/delta^2)/r^2 (0 at r = 0): the point kernel minus the Gaussian blob's."""
    if r2 > 0.0:
        return exp(-r2 / (delta * delta)) / r2
    return 0.0


@annotate(double='d, length', return_='double')
def min_image(d, length):
    """The periodic image of a separation d closest to zero: result in [-length/2, length/2)."""
    return d - length * floor(d / length + 0.5)


@annotate(b='double', return_='double')
def clamp_row_b(b):
    """b limited to [-ROW_B_MAX, ROW_B_MAX] (see ROW_B_MAX)."""
    return max(-ROW_B_MAX, min(ROW_B_MAX, b))


@annotate(double='a, b, row_delta2', return_='double')
def row_denominator(a, b, row_delta2):
    """cosh(b) - cos(a) + row_delta2, as 2 sinh^2(b/2) + 2 sin^2(a/2) + row_delta2.

    The half-angle form has no cancellation at small separations, where cosh b - cos a is the
    difference of two numbers close to 1.
    """
    sh, sn = declare('double', 2)
    sh = sinh(0.5 * b)
    sn = sin(0.5 * a)
    return 2.0 * (sh * sh + sn * sn) + row_delta2


@annotate(double='a, b, row_delta2', return_='double')
def row_factor(a, b, row_delta2):
    """1 / (cosh(b) - cos(a) + row_delta2) for the row of images (0 where it is 0: the self term).

    a = 2 pi dx / L, b = 2 pi dy / L (b clamped by the caller). The row of point vortices of
    period L (the cot kernel, e.g. Saffman, Vortex Dynamics, 1992) gives per unit circulation
        u = -(1/(2L)) sinh(b) / (cosh(b) - cos(a)),  v = (1/(2L)) sin(a) / (cosh(b) - cos(a));
    Krasny (1986, J. Comput. Phys. 65, 292-313; there L = 1) regularises it by adding
    delta^2 to the denominator: row_delta2 = delta^2 for KRASNY, 0 otherwise.
    """
    den = declare('double')
    den = row_denominator(a, b, row_delta2)
    if den > 0.0:
        return 1.0 / den
    return 0.0


@annotate(double='a, b, row_delta2', return_='double')
def row_log(a, b, row_delta2):
    """log(cosh(b) - cos(a) + row_delta2), for |b| past ROW_B_MAX as |b| - log 2 (error < 1e-17)."""
    if abs(b) > ROW_B_MAX:
        return abs(b) - log(2.0)
    return log(row_denominator(a, b, row_delta2))


@annotate(regularisation='int', delta='double', return_='double')
def row_delta2_of(regularisation, delta):
    """The term Krasny adds to the periodic denominator: delta^2 for KRASNY, else 0."""
    if regularisation == KRASNY:
        return delta * delta
    return 0.0


@annotate(double='dx, dy, period', component='int', return_='double')
def row_regular(dx, dy, period, component):
    """The row of point vortices minus its image nearest to the target, near that image.

    For a unit row, 2 pi (u - i v) minus the nearest image's 1/(i z) is (pi/L) i S with
    S = sum_k COT_k w^(2k-1), w = pi (dx + i dy)/L (dx minimum-imaged, |w| < pi/8): this returns
    the u part -(pi/L) Im S (component 0) or the v part -(pi/L) Re S (component 1), in the units
    of the velocity kernels' sums (u = sum / (2 pi)). Smooth at r = 0, where the row and the
    nearest image cancel: the periodic Gaussian blob uses it below r = delta.
    """
    c = declare('matrix(10)')
    wr, wi, qr, qi, pr, pim, t = declare('double', 7)
    c[0] = COT_1
    c[1] = COT_2
    c[2] = COT_3
    c[3] = COT_4
    c[4] = COT_5
    c[5] = COT_6
    c[6] = COT_7
    c[7] = COT_8
    c[8] = COT_9
    c[9] = COT_10
    wr = pi * dx / period
    wi = pi * dy / period
    qr = wr * wr - wi * wi
    qi = 2.0 * wr * wi
    pr = c[9]
    pim = 0.0
    for k in range(8, -1, -1):
        t = pr * qr - pim * qi + c[k]
        pim = pr * qi + pim * qr
        pr = t
    if component == 0:
        return -pi / period * (wr * pim + wi * pr)
    return -pi / period * (wr * pr - wi * pim)


@annotate(double='dx, dy, delta, period', return_='int')
def gaussian_near(dx, dy, delta, period):
    """1 when a periodic Gaussian pair (dx minimum-imaged) is closer than delta and L/8: there
    the row and the Gaussian tail cancel, so the velocity is taken as row_regular + the unbounded
    Gaussian blob of the nearest image instead (the same sum, without the cancellation)."""
    r2 = declare('double')
    r2 = dx * dx + dy * dy
    if r2 < delta * delta and 64.0 * r2 < period * period:
        return 1
    return 0


@annotate(double='dx, dy, delta, period', int='regularisation, periodic', return_='double')
def pair_stream(dx, dy, regularisation, delta, periodic, period):
    """f(dx, dy) with H = -(1/(8 pi)) sum_{j != k} gamma_j gamma_k f(x_k - x_j, y_k - y_j).

    The stream function of vortex j is psi = -(gamma_j/(4 pi)) f, so that u = d(psi)/dy and
    v = -d(psi)/dx give exactly the velocities of the velocity kernels:
      unbounded: point log r^2; Krasny log(r^2 + delta^2); Gaussian log r^2 + E1(r^2/delta^2);
      periodic:  point and Krasny log(cosh b - cos a + row_delta2); Gaussian that (point) plus
                 E1(r0^2/delta^2) of the nearest image r0 (the others are below exp(-64) when
                 delta <= L/16, which the config enforces).
    """
    r2, k, a, b, ddx = declare('double', 5)
    if periodic == 0:
        r2 = dx * dx + dy * dy
        if regularisation == KRASNY:
            return log(r2 + delta * delta)
        if regularisation == GAUSSIAN:
            return log_plus_exp1(r2, delta)
        return log(r2)
    ddx = min_image(dx, period)
    k = 2.0 * pi / period
    a = k * ddx
    b = k * dy
    if regularisation == GAUSSIAN:
        r2 = ddx * ddx + dy * dy
        if r2 > 0.0:
            return row_log(a, b, 0.0) - log(r2) + log_plus_exp1(r2, delta)
        return log(0.5 * k * k) + log_plus_exp1(0.0, delta)
    return row_log(a, b, row_delta2_of(regularisation, delta))


# ---------------------------------------------------------------------------------------------
# Velocities: two evaluation paths with the same sums in the same order (j = 0, 1, ..., N-1).
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='x, y, gamma, u, v', int='n, regularisation, periodic',
          double='delta, period')
def velocity(i, x, y, gamma, u, v, n, regularisation, delta, periodic, period):
    """u[i], v[i] = velocity induced at vortex i by all n vortices (elementwise over targets).

    Unbounded: (u, v) = (1/2pi) sum_j gamma_j K(r^2) (-dy, dx), dx = x_i - x_j, dy = y_i - y_j.
    Periodic:  (u, v) = (1/(2L)) sum_j gamma_j (-sinh b, sin a) / (cosh b - cos a [+ delta^2]),
               a = 2 pi dx / L, b = 2 pi dy / L; Gaussian blobs add the nearest image's
               (1/2pi) gamma_j exp(-r^2/delta^2)/r^2 (dy, -dx).
    velocity_tiled computes the same sums in the same order. FIXED_REGULARISATION and
    FIXED_PERIODIC, when set, replace the arguments of the same name (the driver passes equal ones).
    """
    xi, yi, dx, dy, w, us, vs, k, a, b, rd2 = declare('double', 11)
    regularisation = fixed_or(regularisation, FIXED_REGULARISATION)
    periodic = fixed_or(periodic, FIXED_PERIODIC)
    xi = x[i]
    yi = y[i]
    us = 0.0
    vs = 0.0
    k = 2.0 * pi / period
    rd2 = row_delta2_of(regularisation, delta)
    for j in range(n):
        dx = xi - x[j]
        dy = yi - y[j]
        if periodic == 0:
            w = gamma[j] * velocity_factor(dx * dx + dy * dy, delta, regularisation)
            us -= w * dy
            vs += w * dx
        else:
            dx = min_image(dx, period)
            if regularisation == GAUSSIAN and gaussian_near(dx, dy, delta, period) != 0:
                w = gamma[j] * velocity_factor(dx * dx + dy * dy, delta, GAUSSIAN)
                us += gamma[j] * row_regular(dx, dy, period, 0) - w * dy
                vs += gamma[j] * row_regular(dx, dy, period, 1) + w * dx
                continue
            a = k * dx
            b = clamp_row_b(k * dy)
            w = gamma[j] * 0.5 * k * row_factor(a, b, rd2)
            us -= w * sinh(b)
            vs += w * sin(a)
            if regularisation == GAUSSIAN:
                w = gamma[j] * gaussian_tail_factor(dx * dx + dy * dy, delta)
                us += w * dy
                vs -= w * dx
    u[i] = us / (2.0 * pi)
    v[i] = vs / (2.0 * pi)


@annotate(gdoublep='x, y, gamma, u, v', ldoublep='xs, ys, gs', int='n, regularisation, periodic',
          double='delta, period')
def velocity_tiled(x, y, gamma, u, v, xs, ys, gs, n, regularisation, delta, periodic, period):
    """velocity() as a low-level Kernel: sources pass through local memory in tiles.

    Launch: global size = n rounded up to a multiple of the work-group size T, local size T;
    xs, ys, gs are local arrays of T elements each (C++: smelt::LocalMem(T); Python: LocalMem(1)).
    Work-item t of group g is target i = g T + t. For each tile of T sources every work-item
    loads one source into local memory, the group waits, every target adds the tile's sources
    (only the n - tile*T that exist in the last tile), and the group waits again before the next
    load. All work-items, those past n included, run the same loop, so every barrier is reached
    by the whole group. The sums run over j = 0..n-1 in order, as in velocity(). Specialised
    like velocity() by FIXED_REGULARISATION and FIXED_PERIODIC.
    """
    t, nt, i, tile, ntiles, src, count = declare('int', 7)
    xi, yi, dx, dy, w, us, vs, k, a, b, rd2 = declare('double', 11)
    regularisation = fixed_or(regularisation, FIXED_REGULARISATION)
    periodic = fixed_or(periodic, FIXED_PERIODIC)
    t = LID_0
    nt = LDIM_0
    i = GID_0 * nt + t
    xi = 0.0
    yi = 0.0
    if i < n:
        xi = x[i]
        yi = y[i]
    us = 0.0
    vs = 0.0
    k = 2.0 * pi / period
    rd2 = row_delta2_of(regularisation, delta)
    ntiles = (n + nt - 1) // nt
    for tile in range(ntiles):
        src = tile * nt + t
        if src < n:
            xs[t] = x[src]
            ys[t] = y[src]
            gs[t] = gamma[src]
        local_barrier()
        if i < n:
            count = min(nt, n - tile * nt)
            for jj in range(count):
                dx = xi - xs[jj]
                dy = yi - ys[jj]
                if periodic == 0:
                    w = gs[jj] * velocity_factor(dx * dx + dy * dy, delta, regularisation)
                    us -= w * dy
                    vs += w * dx
                else:
                    dx = min_image(dx, period)
                    if regularisation == GAUSSIAN and gaussian_near(dx, dy, delta, period) != 0:
                        w = gs[jj] * velocity_factor(dx * dx + dy * dy, delta, GAUSSIAN)
                        us += gs[jj] * row_regular(dx, dy, period, 0) - w * dy
                        vs += gs[jj] * row_regular(dx, dy, period, 1) + w * dx
                        continue
                    a = k * dx
                    b = clamp_row_b(k * dy)
                    w = gs[jj] * 0.5 * k * row_factor(a, b, rd2)
                    us -= w * sinh(b)
                    vs += w * sin(a)
                    if regularisation == GAUSSIAN:
                        w = gs[jj] * gaussian_tail_factor(dx * dx + dy * dy, delta)
                        us += w * dy
                        vs -= w * dx
        local_barrier()
    if i < n:
        u[i] = us / (2.0 * pi)
        v[i] = vs / (2.0 * pi)


# ---------------------------------------------------------------------------------------------
# Time integration: the driver alternates velocity evaluations with these stage kernels
# (README.md, "Integrators", gives the sequence for euler, rk2, heun and rk4).
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='x, y, u, v', h='double')
def euler_step(i, x, y, u, v, h):
    """x += h u (Euler's step; the last stage of rk2)."""
    x[i] += h * u[i]
    y[i] += h * v[i]


@annotate(i='int', doublep='x, y, u, v, xs, ys', h='double')
def stage_position(i, x, y, u, v, xs, ys, h):
    """xs = x + h u: the position where the next velocity is evaluated."""
    xs[i] = x[i] + h * u[i]
    ys[i] = y[i] + h * v[i]


@annotate(i='int', doublep='x, y, u, v, xs, ys, au, av', h='double')
def stage_first(i, x, y, u, v, xs, ys, au, av, h):
    """au = u (starts the weighted sum of stage velocities) and xs = x + h u."""
    au[i] = u[i]
    av[i] = v[i]
    xs[i] = x[i] + h * u[i]
    ys[i] = y[i] + h * v[i]


@annotate(i='int', doublep='x, y, u, v, xs, ys, au, av', double='c, h')
def stage_next(i, x, y, u, v, xs, ys, au, av, c, h):
    """au += c u and xs = x + h u."""
    au[i] += c * u[i]
    av[i] += c * v[i]
    xs[i] = x[i] + h * u[i]
    ys[i] = y[i] + h * v[i]


@annotate(i='int', doublep='x, y, u, v, au, av', double='c, h')
def stage_finish(i, x, y, u, v, au, av, c, h):
    """x += h (au + c u): the step's weighted combination of stage velocities."""
    x[i] += h * (au[i] + c * u[i])
    y[i] += h * (av[i] + c * v[i])


# ---------------------------------------------------------------------------------------------
# Map functions for reductions, all summed with 'a+b' (neutral 0).
# ---------------------------------------------------------------------------------------------

@annotate(i='int', doublep='x, y, gamma', return_='double')
def circulation_map(i, x, y, gamma):
    """sum = total circulation sum_k gamma_k."""
    return gamma[i]


@annotate(i='int', doublep='x, y, gamma', return_='double')
def impulse_x_map(i, x, y, gamma):
    """sum = sum_k gamma_k x_k (conserved; the linear impulse is (sum G y, -sum G x))."""
    return gamma[i] * x[i]


@annotate(i='int', doublep='x, y, gamma', return_='double')
def impulse_y_map(i, x, y, gamma):
    """sum = sum_k gamma_k y_k (conserved)."""
    return gamma[i] * y[i]


@annotate(i='int', doublep='x, y, gamma', return_='double')
def angular_impulse_map(i, x, y, gamma):
    """sum = sum_k gamma_k (x_k^2 + y_k^2) (conserved without periodicity)."""
    return gamma[i] * (x[i] * x[i] + y[i] * y[i])


@annotate(i='int', doublep='x, y, gamma', int='n, regularisation, periodic',
          double='delta, period', return_='double')
def hamiltonian_map(i, x, y, gamma, n, regularisation, delta, periodic, period):
    """Vortex i's share -(1/(8 pi)) gamma_i sum_{j != i} gamma_j f_ij of H (pair_stream's f).

    sum = H = -(1/(4 pi)) sum_{j != k} gamma_j gamma_k log(rho_jk) for the point and blob forms.
    """
    s = declare('double')
    s = 0.0
    for j in range(n):
        if j != i:
            s += gamma[j] * pair_stream(x[i] - x[j], y[i] - y[j], regularisation, delta, periodic,
                                        period)
    return -gamma[i] * s / (8.0 * pi)


@annotate(i='int', doublep='x, y, gamma, u, v', return_='double')
def gamma_u_map(i, x, y, gamma, u, v):
    """sum = sum_k gamma_k u_k = 0 (every pair's terms cancel)."""
    return gamma[i] * u[i]


@annotate(i='int', doublep='x, y, gamma, u, v', return_='double')
def gamma_v_map(i, x, y, gamma, u, v):
    """sum = sum_k gamma_k v_k = 0."""
    return gamma[i] * v[i]


@annotate(i='int', doublep='x, y, gamma, u, v', return_='double')
def expansion_map(i, x, y, gamma, u, v):
    """sum = sum_k gamma_k (x_k u_k + y_k v_k) = 0 (unbounded: d/dt of the angular impulse / 2)."""
    return gamma[i] * (x[i] * u[i] + y[i] * v[i])


@annotate(i='int', doublep='x, y, gamma, u, v', return_='double')
def rotation_map(i, x, y, gamma, u, v):
    """sum = sum_k gamma_k (x_k v_k - y_k u_k); unbounded it equals rotation_exact_map's sum."""
    return gamma[i] * (x[i] * v[i] - y[i] * u[i])


@annotate(i='int', doublep='x, y, gamma', int='n, regularisation', delta='double',
          return_='double')
def rotation_exact_map(i, x, y, gamma, n, regularisation, delta):
    """(1/(4 pi)) gamma_i sum_{j != i} gamma_j r_ij^2 K(r_ij^2) (unbounded only).

    Its sum is what sum_k gamma_k (x_k v_k - y_k u_k) must equal: ((sum G)^2 - sum G^2)/(4 pi)
    for point vortices (r^2 K = 1), with r^2/(r^2 + delta^2) or 1 - exp(-r^2/delta^2) per pair
    for the blobs.
    """
    s, dx, dy, r2 = declare('double', 4)
    s = 0.0
    for j in range(n):
        if j != i:
            dx = x[i] - x[j]
            dy = y[i] - y[j]
            r2 = dx * dx + dy * dy
            if regularisation == POINT:
                s += gamma[j]
            else:
                s += gamma[j] * r2 * velocity_factor(r2, delta, regularisation)
    return gamma[i] * s / (4.0 * pi)
