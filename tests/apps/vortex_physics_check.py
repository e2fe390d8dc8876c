#!/usr/bin/env python3
"""CPython checks of apps/vortex/physics.py against independent oracles.

The kernels run element by element on NumPy arrays (the kernel language's CPython meaning); the
low-level tiled kernel runs through an emulator of work-groups (below). The oracles are written
here with NumPy (complex cot, brute-force image sums, quadrature, scipy where present), without
calling physics.py. The driver's step sequences and initial states come from
validation/vortex_common.py, the CPython reference of the vortex driver. Run by hand or by a
gtest per check:

    /usr/bin/python3 tests/apps/vortex_physics_check.py [check ...]    # no argument: all checks
"""

import ast
import inspect
import math
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PHYSICS = ROOT / "apps" / "vortex" / "physics.py"
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "apps" / "vortex"),
                str(ROOT / "validation")]
import physics as P  # noqa: E402
import vortex_common as V  # noqa: E402

FAILURES = []
MODES = [  # (name, regularisation, delta, periodic, period)
    ("point", P.POINT, 0.0, 0, 1.0),
    ("krasny", P.KRASNY, 0.15, 0, 1.0),
    ("gaussian", P.GAUSSIAN, 0.15, 0, 1.0),
    ("point periodic", P.POINT, 0.0, 1, 1.7),
    ("krasny periodic", P.KRASNY, 0.3, 1, 1.7),
    ("gaussian periodic", P.GAUSSIAN, 0.09, 1, 1.7),
]


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL: " + msg)


def random_vortices(n, seed, spread=1.5, mixed=True, close=True):
    """n random vortices; with `close` the last sits 0.03 from the first (closer than every
    delta of MODES: the blobs' near-field branches run)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, n) * spread
    y = rng.uniform(-0.8, 0.8, n) * spread
    g = rng.uniform(-1.0, 2.0, n) if mixed else rng.uniform(0.5, 1.5, n)
    if close and n > 2:
        x[-1], y[-1] = x[0] + 0.018, y[0] - 0.024
    return x, y, g


def kernel_velocity(x, y, g, mode):
    n = len(x)
    u, v = np.zeros(n), np.zeros(n)
    V.elementwise(P.velocity, n, x, y, g, u, v, n, *mode[1:])
    return u, v


# ---- the low-level Kernel emulated in CPython ------------------------------------------------

class LocalMem:
    """A local array argument: `per_item` elements per work-item (Python's LocalMem(1))."""

    def __init__(self, per_item=1):
        self.per_item = per_item


def _barrier_generator(func):
    """func's source with every `local_barrier()` statement turned into `yield` (same lines)."""
    lines, first = inspect.getsourcelines(func)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    ast.increment_lineno(tree, first - 1)
    fn = tree.body[0]
    fn.decorator_list = []

    class Barriers(ast.NodeTransformer):
        def visit_Expr(self, node):
            call = node.value
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "local_barrier":
                return ast.copy_location(ast.Expr(ast.Yield(None)), node)
            return node

    tree = ast.fix_missing_locations(Barriers().visit(tree))
    return compile(tree, inspect.getsourcefile(func), "exec")


def run_kernel(func, global_size, local_size, args, reverse=False):
    """Runs a low-level kernel as the engine launches it, one work-group after the other.

    Each work-item is a generator of the kernel with its own LID_0, GID_0, LDIM_0, GDIM_0; the
    items of a group run in lock step from one barrier to the next (in index order, or reversed:
    a kernel whose result depends on that order has a race). Every item must reach the same
    number of barriers. Local arrays start as NaN, so reading a slot nobody wrote shows up.
    Returns the number of barrier phases per group.
    """
    assert global_size % local_size == 0
    code = _barrier_generator(func)
    groups = global_size // local_size
    phases = []
    for gid in range(groups):
        call_args = [np.full(a.per_item * local_size, np.nan) if isinstance(a, LocalMem) else a
                     for a in args]
        items = []
        for lid in range(local_size):
            ns = dict(vars(P))
            ns.update(LID_0=lid, GID_0=gid, LDIM_0=local_size, GDIM_0=groups)
            exec(code, ns)
            items.append(ns[func.__name__](*call_args))
        count = 0
        while True:
            order = range(local_size - 1, -1, -1) if reverse else range(local_size)
            alive = []
            for lid in order:
                try:
                    next(items[lid])
                    alive.append(True)
                except StopIteration:
                    alive.append(False)
            if all(alive):
                count += 1
                continue
            check(not any(alive), "%s: work-items of group %d reach different numbers of "
                  "barriers" % (func.__name__, gid))
            break
        phases.append(count)
    return phases


def tiled_velocity(x, y, g, mode, tile, reverse=False):
    n = len(x)
    u, v = np.full(n, np.nan), np.full(n, np.nan)
    gsize = (n + tile - 1) // tile * tile
    phases = run_kernel(P.velocity_tiled, gsize, tile,
                        [x, y, g, u, v, LocalMem(), LocalMem(), LocalMem(), n, *mode[1:]],
                        reverse)
    return u, v, phases


# ---- independent oracles (NumPy, not physics.py) ---------------------------------------------

GAUSS_60 = np.polynomial.legendre.leggauss(60)
GAUSS_20 = np.polynomial.legendre.leggauss(20)


def np_exp1(z):
    """E1(z) by quadrature: for z <= 1 through Ein(z) = int_0^z (1 - e^-t)/t dt (60-point
    Gauss-Legendre; E1 = Ein - gamma - log z), beyond as e^-z int_0^40 e^-s/(z + s) ds by
    20-point Gauss-Legendre on unit panels (the rest of the integral is below e^-40)."""
    z = float(z)
    if z <= 1.0:
        t, w = GAUSS_60
        s = 0.5 * z * (t + 1.0)
        ein = 0.5 * z * np.sum(w * (-np.expm1(-s)) / s)
        return ein - np.euler_gamma - math.log(z)
    t, w = GAUSS_20
    s = (np.arange(40)[:, None] + 0.5 * (t[None, :] + 1.0)).ravel()
    return math.exp(-z) * 0.5 * math.fsum((np.tile(w, 40) * np.exp(-s) / (z + s)))


def np_pair_stream(dx, dy, mode):
    """pair_stream's f: log r^2, log(r^2 + d^2), log r^2 + E1, log(2 |sin(pi z/L)|^2) (+ E1)."""
    _, reg, delta, periodic, length = mode
    if not periodic:
        r2 = dx * dx + dy * dy
        if reg == P.POINT:
            return math.log(r2)
        if reg == P.KRASNY:
            return math.log(r2 + delta ** 2)
        return math.log(r2) + np_exp1(r2 / delta ** 2)
    if reg == P.KRASNY:
        return math.log(math.cosh(2 * np.pi * dy / length) - math.cos(2 * np.pi * dx / length)
                        + delta ** 2)
    f = math.log(2.0 * abs(np.sin(np.pi * complex(dx, dy) / length)) ** 2)
    if reg == P.GAUSSIAN:
        ddx = dx - length * round(dx / length)
        f += np_exp1((ddx * ddx + dy * dy) / delta ** 2)
    return f


def image_sum_velocity(dx, dy, reg, delta, length, images):
    """Velocity per unit circulation of the row of images x_j + m L, |m| <= images, plus the two
    tails |m| > images by the midpoint rule as integrals (error ~ 1/images^3)."""
    m = np.arange(-images, images + 1)
    ddx = dx + m * length
    r2 = ddx * ddx + dy * dy
    if reg == P.GAUSSIAN:
        k = -np.expm1(-r2 / delta ** 2) / r2
    else:
        k = 1.0 / r2
    u = -np.sum(k * dy)
    v = np.sum(k * ddx)
    c = (images + 0.5) * length
    if dy != 0.0:  # int dy/(s^2 + dy^2) ds/L over both tails, s = dx + t L
        u -= (math.copysign(math.pi, dy) - math.atan((dx + c) / dy)
              + math.atan((dx - c) / dy)) / length
    v += 0.5 / length * math.log(((dx - c) ** 2 + dy ** 2) / ((dx + c) ** 2 + dy ** 2))
    return u / (2 * np.pi), v / (2 * np.pi)


# ---- checks ----------------------------------------------------------------------------------

def check_kernel_language():
    """physics.py sticks to the constructs LANGUAGE.md accepts, with explicit types everywhere."""
    tree = ast.parse(PHYSICS.read_text(), str(PHYSICS))
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    def constant_expression(e):
        return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator,
                                  ast.unaryop, ast.Name, ast.Load)) for n in ast.walk(e))

    for node in tree.body:
        ok = isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef)) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) or (
            isinstance(node, ast.Assign) and constant_expression(node.value))
        check(ok, "physics.py:%d: top-level %s" % (node.lineno, type(node).__name__))
        if isinstance(node, ast.ImportFrom):
            check(node.module in ("math", "smelt"),
                  "physics.py:%d: imports only from math (and smelt)" % node.lineno)
    builtins = {"floor", "sqrt", "min", "max", "abs", "int", "float", "declare", "range", "sin",
                "cos", "sinh", "exp", "expm1", "log", "local_barrier"}
    work_item = {"LID_0", "GID_0", "LDIM_0", "GDIM_0"}
    type_names = {"int", "double", "intp", "doublep", "gdoublep", "ldoublep"}
    allowed = (ast.FunctionDef, ast.arguments, ast.arg, ast.Expr, ast.Assign, ast.AugAssign,
               ast.If, ast.For, ast.While, ast.Return, ast.Continue, ast.Break, ast.Name,
               ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
               ast.Call, ast.Subscript, ast.Load, ast.Store, ast.operator, ast.unaryop,
               ast.boolop, ast.cmpop, ast.Tuple, ast.keyword)
    constants = {t.targets[0].id for t in tree.body if isinstance(t, ast.Assign)}
    for name, fn in funcs.items():
        where = "physics.py:%d %s" % (fn.lineno, name)
        decos = [d for d in fn.decorator_list
                 if isinstance(d, ast.Call) and getattr(d.func, "id", "") == "annotate"]
        check(len(decos) == 1, where + ": needs exactly one @annotate(...)")
        if not decos:
            continue
        typed, has_return_type = {}, False
        for kw in decos[0].keywords:
            value = kw.value.value
            if kw.arg == "return_":
                has_return_type = True
            elif kw.arg in type_names:
                for p in value.split(","):
                    typed[p.strip()] = kw.arg
            else:
                check(value in type_names, where + ": unknown type %r" % value)
                typed[kw.arg] = value
        params = [a.arg for a in fn.args.args]
        for p in params:
            check(p in typed, where + ": parameter %r has no explicit type" % p)
        returns_value = any(isinstance(n, ast.Return) and n.value is not None
                            for n in ast.walk(fn))
        check(returns_value == has_return_type, where + ": return_ type must match returns")
        uses_work_items = False
        for node in ast.walk(fn):
            if node is fn or isinstance(node, (ast.arguments, ast.arg)):
                continue
            if node in decos[0].keywords or any(node is d for d in ast.walk(decos[0])):
                continue
            if not isinstance(node, allowed):
                check(False, "%s:%d: construct %s is not in the kernel language"
                      % (where, node.lineno, type(node).__name__))
            if isinstance(node, ast.Name) and node.id in work_item:
                uses_work_items = True
            if isinstance(node, ast.Call):
                callee = getattr(node.func, "id", None)
                check(callee in builtins or callee in funcs,
                      "%s: call to %r is neither a builtin nor a function of the file"
                      % (where, callee))
                check(not node.keywords, where + ": keyword arguments at a call site")
                if callee == "declare":
                    spec = node.args[0].value
                    check("LOCAL_MEM" not in spec, where + ": local memory comes as ldoublep")
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple):
                v = node.value
                check(isinstance(v, ast.Call) and getattr(v.func, "id", "") == "declare",
                      where + ": tuple assignment only from declare()")
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        check(t.id not in params or typed.get(t.id) in ("int", "double"),
                              where + ": assigns to array parameter %r" % t.id)
                        check(t.id not in constants, where + ": assigns to constant " + t.id)
            if isinstance(node, ast.For):
                it = node.iter
                check(isinstance(it, ast.Call) and getattr(it.func, "id", "") == "range",
                      where + ": for loops iterate over range() only")
        check(uses_work_items == (name == "velocity_tiled"),
              where + ": work-item names belong to velocity_tiled only")
        if name != "velocity_tiled":
            check(not any(t in ("gdoublep", "ldoublep") for t in typed.values()),
                  where + ": g/l pointers only in the low-level kernel")


def check_velocity_numpy():
    """velocity() = an independent NumPy evaluation, every regularisation, unbounded and
    periodic."""
    for seed, mode in enumerate(MODES):
        x, y, g = random_vortices(40, seed)
        if mode[3]:
            x = x * 2.0  # spans more than one period: the kernel must be periodic in x
        u, v = kernel_velocity(x, y, g, mode)
        uo, vo = V.numpy_velocity(x, y, g, mode[1:])
        dx = x[:, None] - x[None, :]
        dy = y[:, None] - y[None, :]
        r = np.hypot(dx, dy) + np.eye(len(x))
        scale = (np.abs(g) / r) @ np.ones(len(x)) / (2 * np.pi) + np.abs(g).sum()
        err = max(np.max(np.abs(u - uo) / scale), np.max(np.abs(v - vo) / scale))
        check(err < 1e-13, "%s: velocity vs NumPy, relative error %.2e" % (mode[0], err))
    # a lone vortex does not move; a far pair at distance d moves at G/(2 pi d)
    for mode in MODES:
        u, v = kernel_velocity(np.array([0.3]), np.array([-0.2]), np.array([2.0]), mode)
        check(u[0] == 0.0 and v[0] == 0.0, "%s: a single vortex moves itself" % mode[0])


def check_tiled_kernel():
    """velocity_tiled (emulated work-groups) = velocity() bit for bit, for N not a multiple of the
    tile, N < tile, tile 1; no race (reversed lock-step order gives the same bits); barriers."""
    for mode in MODES:
        for n, tile in ((1, 4), (13, 4), (16, 4), (7, 16), (9, 1), (23, 8)):
            x, y, g = random_vortices(n, 100 + n)
            u, v = kernel_velocity(x, y, g, mode)
            ut, vt, phases = tiled_velocity(x, y, g, mode, tile)
            check(np.array_equal(u, ut) and np.array_equal(v, vt),
                  "%s n=%d tile=%d: tiled != elementwise (max diff %.2e)"
                  % (mode[0], n, tile, np.max(np.abs(np.r_[u - ut, v - vt]))))
            ntiles = (n + tile - 1) // tile
            check(all(p == 2 * ntiles for p in phases),
                  "%s n=%d tile=%d: %s barrier phases per group, expected %d"
                  % (mode[0], n, tile, phases, 2 * ntiles))
            if n == 13:
                ur, vr, _ = tiled_velocity(x, y, g, mode, tile, reverse=True)
                check(np.array_equal(ur, ut) and np.array_equal(vr, vt),
                      "%s: tiled result depends on the order of work-items (race)" % mode[0])


def check_identities():
    """sum G u = sum G v = 0, sum G (x u + y v) = 0, sum G (x v - y u) = ((sum G)^2 - sum G^2)/4pi
    (point) or its blob forms, to round-off on random configurations; the maps sum them."""
    for seed, mode in enumerate(MODES):
        n = 50
        x, y, g = random_vortices(n, 7 + seed)
        x, y = x + 3.0, y - 2.0  # away from the origin: the moment identities are origin-free
        u, v = kernel_velocity(x, y, g, mode)
        args = (x, y, g, u, v)
        scale_u = math.fsum(np.abs(g * u)) + 1e-300
        scale_m = math.fsum(np.abs(g) * np.hypot(x, y) * np.hypot(u, v))
        gu = V.reduce_sum(P.gamma_u_map, n, *args)
        gv = V.reduce_sum(P.gamma_v_map, n, *args)
        check(abs(gu) < 1e-13 * scale_u and abs(gv) < 1e-13 * scale_u,
              "%s: sum G u = %.2e, sum G v = %.2e (scale %.2e)" % (mode[0], gu, gv, scale_u))
        check(abs(gu - math.fsum(g * u)) < 1e-15 * scale_u, mode[0] + ": gamma_u_map")
        if mode[3]:
            continue  # the moment identities need rotation and scaling symmetry
        exp_ = V.reduce_sum(P.expansion_map, n, *args)
        check(abs(exp_) < 1e-13 * scale_m,
              "%s: sum G (x u + y v) = %.2e (scale %.2e)" % (mode[0], exp_, scale_m))
        rot = V.reduce_sum(P.rotation_map, n, *args)
        exact = V.reduce_sum(P.rotation_exact_map, n, x, y, g, n, mode[1], mode[2])
        dx, dy = x[:, None] - x[None, :], y[:, None] - y[None, :]
        r2 = dx * dx + dy * dy
        off = ~np.eye(n, dtype=bool)
        if mode[1] == P.POINT:
            oracle = (g.sum() ** 2 - (g * g).sum()) / (4 * np.pi)
        elif mode[1] == P.KRASNY:
            oracle = np.sum(np.outer(g, g) * np.where(off, r2 / (r2 + mode[2] ** 2), 0.0)) / (
                4 * np.pi)
        else:
            oracle = np.sum(np.outer(g, g) * np.where(off, -np.expm1(-r2 / mode[2] ** 2), 0.0)) / (
                4 * np.pi)
        tol = 1e-13 * scale_m
        check(abs(rot - oracle) < tol and abs(exact - oracle) < tol,
              "%s: sum G (x v - y u) = %.15g, rotation_exact_map %.15g, NumPy %.15g"
              % (mode[0], rot, exact, oracle))


def check_periodic_images():
    """The periodic closed forms = brute-force sums over 2 x 4000 images (+ midpoint tails):
    point vortices and Gaussian blobs; Krasny's periodic kernel -> the point row as delta -> 0
    and -> an algebraic blob of radius delta L/(pi sqrt 2) at separations << L."""
    length = 1.3
    rng = np.random.default_rng(5)
    for reg, delta in ((P.POINT, 0.0), (P.GAUSSIAN, 0.07)):
        for _ in range(12):
            dx, dy = rng.uniform(-2.5, 2.5), rng.uniform(-1.0, 1.0)
            u, v = kernel_velocity(np.array([dx, 0.0]), np.array([dy, 0.0]),
                                   np.array([0.0, 1.0]), ("", reg, delta, 1, length))
            ub, vb = image_sum_velocity(dx, dy, reg, delta, length, 4000)
            err = max(abs(u[0] - ub), abs(v[0] - vb))
            check(err < 1e-11, "image sum (reg %d) at (%.3f, %.3f): kernel (%.15g, %.15g), "
                  "images (%.15g, %.15g)" % (reg, dx, dy, u[0], v[0], ub, vb))
    # periodic Gaussian pairs far closer than delta (row and tail cancel there) and around the
    # switch r = delta of the near-field form
    for reg, delta in ((P.GAUSSIAN, 0.07),):
        for r in (1e-5, 1e-3, 0.01, 0.0699999999, 0.0700000001, 0.2):
            dx, dy = 0.6 * r + 3 * length, -0.8 * r
            u, v = kernel_velocity(np.array([dx, 0.0]), np.array([dy, 0.0]),
                                   np.array([0.0, 1.0]), ("", reg, delta, 1, length))
            ub, vb = image_sum_velocity(0.6 * r, dy, reg, delta, length, 4000)
            err = max(abs(u[0] - ub), abs(v[0] - vb)) / math.hypot(ub, vb)
            check(err < 1e-11, "periodic Gaussian at r = %g: relative error %.2e" % (r, err))
    # Krasny: delta -> 0 is the point row; small separations see a blob of radius d L/(pi sqrt 2)
    x, y, g = np.array([0.011, 0.0]), np.array([-0.023, 0.0]), np.array([0.0, 1.0])
    up, vp = kernel_velocity(x, y, g, ("", P.POINT, 0.0, 1, length))
    uk, vk = kernel_velocity(x, y, g, ("", P.KRASNY, 1e-9, 1, length))
    check(abs(uk[0] - up[0]) < 1e-12 * abs(up[0]) and abs(vk[0] - vp[0]) < 1e-12 * abs(vp[0]),
          "Krasny periodic with delta -> 0 differs from the point row")
    dk = 0.004
    xs, ys = np.array([2e-4, 0.0]), np.array([-3e-4, 0.0])
    uk, vk = kernel_velocity(xs, ys, g, ("", P.KRASNY, dk, 1, length))
    ua, va = kernel_velocity(xs, ys, g, ("", P.KRASNY, dk * length / (math.pi * math.sqrt(2)),
                                         0, length))
    check(abs(uk[0] / ua[0] - 1) < 1e-5 and abs(vk[0] / va[0] - 1) < 1e-5,
          "Krasny periodic at small separation: (%.10g, %.10g) vs blob (%.10g, %.10g)"
          % (uk[0], vk[0], ua[0], va[0]))
    # far above the row (|2 pi dy/L| > 40) the clamp keeps u = -/+ G/(2L), v = 0
    for dy in (9.0, -40.0, 1e4):
        for reg, delta in ((P.POINT, 0.0), (P.KRASNY, 0.2), (P.GAUSSIAN, 0.05)):
            u, v = kernel_velocity(np.array([0.3, 0.0]), np.array([dy, 0.0]),
                                   np.array([0.0, 1.0]), ("", reg, delta, 1, length))
            check(abs(u[0] + math.copysign(0.5 / length, dy)) < 1e-15 and abs(v[0]) < 1e-15,
                  "row velocity far away at dy=%g (reg %d): (%r, %r)" % (dy, reg, u[0], v[0]))


def check_hamiltonian():
    """hamiltonian_map's H = NumPy's pair sum, and G_k u_k = dH/dy_k, G_k v_k = -dH/dx_k by
    central differences (every regularisation, unbounded and periodic)."""
    for seed, mode in enumerate(MODES):
        n = 6
        x, y, g = random_vortices(n, 40 + seed)
        phys = mode[1:]

        def ham(xx, yy):
            return V.reduce_sum(P.hamiltonian_map, n, xx, yy, g, n, *phys)

        h = ham(x, y)
        oracle = -sum(g[j] * g[k] * np_pair_stream(x[k] - x[j], y[k] - y[j], mode)
                      for j in range(n) for k in range(n) if j != k) / (8 * np.pi)
        check(abs(h - oracle) < 1e-12 * (1 + abs(oracle)),
              "%s: H = %.15g, NumPy %.15g" % (mode[0], h, oracle))
        u, v = kernel_velocity(x, y, g, mode)
        eps = 1e-5
        worst = 0.0
        for k in range(n):
            xp, xm, yp, ym = x.copy(), x.copy(), y.copy(), y.copy()
            xp[k] += eps
            xm[k] -= eps
            yp[k] += eps
            ym[k] -= eps
            dhdx = (ham(xp, y) - ham(xm, y)) / (2 * eps)
            dhdy = (ham(x, yp) - ham(x, ym)) / (2 * eps)
            worst = max(worst, abs(g[k] * u[k] - dhdy), abs(g[k] * v[k] + dhdx))
        scale = np.max(np.abs(g * np.hypot(u, v)))
        check(worst < 1e-7 * scale, "%s: Hamilton's equations off by %.2e (scale %.2e)"
              % (mode[0], worst, scale))
    # coincident vortices are finite for blobs: H pair term at r = 0
    for mode in MODES[1:3] + MODES[4:6]:
        h0 = V.reduce_sum(P.hamiltonian_map, 2, np.array([0.2, 0.2]), np.array([0.1, 0.1]),
                          np.array([1.0, 1.0]), 2, *mode[1:])
        h1 = V.reduce_sum(P.hamiltonian_map, 2, np.array([0.2, 0.2 + 1e-7]),
                          np.array([0.1, 0.1]), np.array([1.0, 1.0]), 2, *mode[1:])
        check(math.isfinite(h0) and abs(h0 - h1) < 1e-10,
              "%s: H of coincident blobs %r, 1e-7 apart %r" % (mode[0], h0, h1))


def check_exp1():
    """exp1 (series + continued fraction) = quadrature and scipy.special.exp1 to 1e-13 over
    z in [1e-12, 700]; log_plus_exp1 continuous at its switch and exact at s = 0."""
    zs = np.concatenate([np.logspace(-12, math.log10(700.0), 400), [0.999999, 1.0, 1.000001]])
    worst = max(abs(P.exp1(float(z)) / np_exp1(z) - 1) for z in zs)
    check(worst < 1e-13, "exp1 vs quadrature: relative error %.2e" % worst)
    try:
        from scipy.special import exp1 as sp_exp1
    except ImportError:
        print("note: scipy not installed, exp1 checked against quadrature only")
    else:
        worst = max(abs(P.exp1(float(z)) / sp_exp1(z) - 1) for z in zs)
        check(worst < 1e-13, "exp1 vs scipy: relative error %.2e" % worst)
    d = 0.37
    for z in (1.0 - 1e-12, 1.0, 1.0 + 1e-12, 1e-300):
        s = z * d * d
        ref = math.log(s) + np_exp1(z)
        check(abs(P.log_plus_exp1(s, d) - ref) < 1e-13 * max(1.0, abs(ref)),
              "log_plus_exp1(z=%r) = %r, expected %r" % (z, P.log_plus_exp1(s, d), ref))
    check(abs(P.log_plus_exp1(0.0, d) - (math.log(d * d) - np.euler_gamma)) < 1e-15,
          "log_plus_exp1(0) != log(delta^2) - gamma")


def check_gaussian_core():
    """The Gaussian factor (1 - exp(-z))/r^2: 1/delta^2 at r = 0, the series and expm1 branches
    agree with each other and with expm1 (relative 1e-15)."""
    d = 0.2
    check(P.velocity_factor(0.0, d, P.GAUSSIAN) == 1.0 / (d * d), "Gaussian K(0) != 1/delta^2")
    for z in np.concatenate([np.logspace(-12, -1, 200), [P.GAUSS_SERIES_Z * (1 - 1e-12),
                                                         P.GAUSS_SERIES_Z]]):
        r2 = z * d * d
        ref = -np.expm1(-z) / r2
        got = P.velocity_factor(r2, d, P.GAUSSIAN)
        check(abs(got / ref - 1) < 1e-15, "Gaussian K at z=%g: %r vs %r" % (z, got, ref))
    check(P.gaussian_tail_factor(0.0, d) == 0.0, "gaussian_tail_factor(0) != 0")


def rotation_error(kind, integrator, steps, t_end):
    """Max distance from the exact rigid rotation after t_end, ring (5 vortices) or pair."""
    if kind == "ring":
        n, radius, g = 5, 1.0, 1.0
        cfg = V.resolve({"initial": {"kind": "ring", "n": n, "radius": radius, "phase": 0.3}})
        omega = (n - 1) * g / (4 * np.pi * radius ** 2)
    else:
        g1, g2, d = 1.0, 0.5, 1.0
        cfg = V.resolve({"initial": {"kind": "pair", "separation": d, "circulations": [g1, g2],
                                     "center": [0.2, -0.1]}})
        omega = (g1 + g2) / (2 * np.pi * d * d)
    x, y, g = V.initial_state(cfg)
    cx, cy = np.sum(g * x) / g.sum(), np.sum(g * y) / g.sum()
    sim = V.PySim(x, y, g, V.physics_args(cfg), integrator, t_end / steps)
    for _ in range(steps):
        sim.step()
    c, s = math.cos(omega * t_end), math.sin(omega * t_end)
    xe = cx + c * (x - cx) - s * (y - cy)
    ye = cy + s * (x - cx) + c * (y - cy)
    return float(np.max(np.hypot(sim.x - xe, sim.y - ye)))


def check_rotation_order():
    """Ring Omega = (N-1) G/(4 pi R^2), co-rotating pair Omega = (G1+G2)/(2 pi d^2), opposite pair
    speed G/(2 pi d), blob ring Omega = G/(4 pi R^2) sum r^2 K(r^2); the position error after a
    fixed time falls as dt^1, dt^2, dt^2, dt^4 (euler, rk2, heun, rk4)."""
    for n in (2, 3, 7):
        x, y, g = V.initial_state(V.resolve({"initial": {"kind": "ring", "n": n, "radius": 0.8,
                                                         "circulation": 1.3}}))
        for mode in MODES[:3]:
            u, v = kernel_velocity(x, y, g, mode)
            rj = 2 * 0.8 * np.sin(np.pi * np.arange(1, n) / n)
            kf = np.array([P.velocity_factor(r * r, mode[2], mode[1]) for r in rj])
            omega = 1.3 / (4 * np.pi * 0.64) * np.sum(rj * rj * kf)
            if mode[1] == P.POINT:
                check(abs(omega - (n - 1) * 1.3 / (4 * np.pi * 0.64)) < 1e-15, "ring Omega")
            err = max(np.max(np.abs(u + omega * y)), np.max(np.abs(v - omega * x)))
            check(err < 1e-14, "%s ring of %d: velocity != Omega x r (%.2e)" % (mode[0], n, err))
    x, y, g = V.initial_state(V.resolve({"initial": {"kind": "opposite_pair", "separation": 0.5,
                                                     "circulation": 2.0}}))
    u, v = kernel_velocity(x, y, g, MODES[0])
    speed = 2.0 / (2 * np.pi * 0.5)
    check(np.max(np.abs(u)) < 1e-15 and np.max(np.abs(v - speed)) < 1e-14,
          "opposite pair: velocity (%r, %r), expected (0, %r)" % (u, v, speed))
    plans = {"euler": (200, 400, 800), "rk2": (20, 40, 80), "heun": (20, 40, 80),
             "rk4": (8, 16, 32)}
    for kind in ("ring", "pair"):
        t_end = 2.0
        for integ, steps_list in plans.items():
            errs = [rotation_error(kind, integ, s, t_end) for s in steps_list]
            slope = np.polyfit(np.log([t_end / s for s in steps_list]), np.log(errs), 1)[0]
            check(abs(slope - V.ORDER[integ]) < 0.15,
                  "%s %s: order %.2f (errors %s), expected %d"
                  % (kind, integ, slope, ["%.2e" % e for e in errs], V.ORDER[integ]))


def check_conservation():
    """Short RK4 runs: circulation and the linear impulses exact to round-off, angular impulse
    and H to the integrator's error; Krasny's sheet keeps its point symmetry about (L/2, 0)."""
    for mode in MODES[:3]:
        x, y, g = random_vortices(12, 3, mixed=False, close=False)
        sim = V.PySim(x, y, g, mode[1:], "rk4", 0.002)
        o0 = sim.observables()
        for _ in range(20):
            sim.step()
        o1 = sim.observables()
        scale = np.sum(np.abs(g)) * 2.0
        for k in ("circulation", "impulse_x", "impulse_y"):
            check(abs(o1[k] - o0[k]) < 1e-14 * scale, "%s: %s drifts %.2e"
                  % (mode[0], k, o1[k] - o0[k]))
        for k in ("angular_impulse", "hamiltonian"):
            rel = abs(o1[k] - o0[k]) / abs(o0[k])
            check(rel < 1e-8, "%s: %s relative drift %.2e" % (mode[0], k, rel))
    cfg = V.resolve({"physics": {"regularisation": "krasny", "delta": 0.2, "periodic_x": True,
                                 "period": 1.0},
                     "initial": {"kind": "sheet", "n": 24, "amplitude": 0.05}})
    x, y, g = V.initial_state(cfg)
    sim = V.PySim(x, y, g, V.physics_args(cfg), "rk4", 0.02)
    o0 = sim.observables()
    for _ in range(15):
        sim.step()
    o1 = sim.observables()
    n = len(x)
    mirror = (-np.arange(n)) % n
    sx = np.max(np.abs((sim.x + sim.x[mirror] + 0.5) % 1.0 - 0.5))
    sy = np.max(np.abs(sim.y + sim.y[mirror]))
    check(sx < 1e-12 and sy < 1e-12, "sheet symmetry broken: %.2e, %.2e" % (sx, sy))
    check(np.max(np.abs(sim.y)) > 1.5 * np.max(np.abs(y)), "sheet did not start to roll up")
    for k in ("circulation", "impulse_x", "impulse_y"):
        check(abs(o1[k] - o0[k]) < 1e-14, "sheet: %s drifts %.2e" % (k, o1[k] - o0[k]))
    rel = abs(o1["hamiltonian"] - o0["hamiltonian"]) / abs(o0["hamiltonian"])
    check(rel < 3e-6, "sheet: H relative drift %.2e" % rel)


def check_stage_kernels():
    """The stage kernels compute exactly the combinations their docstrings state."""
    rng = np.random.default_rng(9)
    n = 5
    x, y, u, v, au, av = (rng.normal(size=n) for _ in range(6))
    xs, ys = np.zeros(n), np.zeros(n)
    a = [arr.copy() for arr in (x, y, u, v, au, av)]
    V.elementwise(P.stage_position, n, x, y, u, v, xs, ys, 0.3)
    check(np.array_equal(xs, a[0] + 0.3 * a[2]) and np.array_equal(ys, a[1] + 0.3 * a[3]),
          "stage_position")
    V.elementwise(P.stage_next, n, x, y, u, v, xs, ys, au, av, 2.0, 0.7)
    check(np.array_equal(au, a[4] + 2.0 * a[2]) and np.array_equal(av, a[5] + 2.0 * a[3]) and
          np.array_equal(xs, a[0] + 0.7 * a[2]), "stage_next")
    V.elementwise(P.stage_first, n, x, y, u, v, xs, ys, au, av, 0.1)
    check(np.array_equal(au, a[2]) and np.array_equal(ys, a[1] + 0.1 * a[3]), "stage_first")
    au2 = rng.normal(size=n)
    av2 = rng.normal(size=n)
    x0, y0 = x.copy(), y.copy()
    V.elementwise(P.stage_finish, n, x, y, u, v, au2, av2, 1.0, 0.25)
    check(np.array_equal(x, x0 + 0.25 * (au2 + u)) and np.array_equal(y, y0 + 0.25 * (av2 + v)),
          "stage_finish")
    V.elementwise(P.euler_step, n, x, y, u, v, 0.5)
    check(np.array_equal(x, x0 + 0.25 * (au2 + u) + 0.5 * u), "euler_step")


def check_reductions():
    """The invariant maps sum the right quantities."""
    x, y, g = np.array([1.0, -2.0, 0.5]), np.array([0.0, 3.0, -1.0]), np.array([2.0, 1.0, -4.0])
    a = (x, y, g)
    check(V.reduce_sum(P.circulation_map, 3, *a) == -1.0, "circulation_map")
    check(V.reduce_sum(P.impulse_x_map, 3, *a) == -2.0, "impulse_x_map")
    check(V.reduce_sum(P.impulse_y_map, 3, *a) == 7.0, "impulse_y_map")
    check(V.reduce_sum(P.angular_impulse_map, 3, *a) == 2.0 + 13.0 - 5.0, "angular_impulse_map")
    u, v = np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 0.0])
    b = (x, y, g, u, v)
    check(V.reduce_sum(P.gamma_u_map, 3, *b) == 2 + 2 - 12, "gamma_u_map")
    check(V.reduce_sum(P.gamma_v_map, 3, *b) == -2 + 0.5, "gamma_v_map")
    check(V.reduce_sum(P.expansion_map, 3, *b) == 2 * 1 + 1 * (-4 + 1.5) - 4 * 1.5,
          "expansion_map")
    check(V.reduce_sum(P.rotation_map, 3, *b) == 2 * -1 + 1 * (-1 - 6) - 4 * (0 + 3),
          "rotation_map")


def check_initial_states():
    """The CPython initial states follow the README's definitions: std::mt19937_64, disc and
    square patches, lattice, Lamb-Oseen rings (circulation exact, second moment ~ Gamma r_c^2),
    ring, pairs, Krasny's sheet, CSV files."""
    rng = V.MT19937_64()
    for _ in range(9999):
        rng()
    check(rng() == 9981545732273789042, "MT19937_64: 10000th output of the default seed")
    cfg = V.resolve({"initial": {"kind": "patch", "n": 300, "radius": 0.7, "center": [1, 2],
                                 "total_circulation": 3.0, "seed": 11}})
    x, y, g = V.initial_state(cfg)
    r = np.hypot(x - 1, y - 2)
    check(len(x) == 300 and r.max() < 0.7 and r.min() >= 0 and abs(g.sum() - 3.0) < 1e-13,
          "disc patch")
    x2, _, _ = V.initial_state(cfg)
    check(np.array_equal(x, x2), "patch not reproducible for one seed")
    cfg = V.resolve({"initial": {"kind": "patch", "n": 200, "shape": "square", "side": 2.0,
                                 "circulation_spread": 2.0}})
    x, y, g = V.initial_state(cfg)
    check(np.max(np.abs(x)) <= 1 and np.max(np.abs(y)) <= 1 and g.min() < 0 < g.max() and
          g.max() <= 3.0 / 200 and g.min() >= -1.0 / 200, "square patch with spread")
    x, y, g = V.initial_state(V.resolve({"initial": {"kind": "lattice", "n_side": 10,
                                                     "shape": "disc", "radius": 1.0}}))
    grid = np.linspace(-0.9, 0.9, 10)
    inside = [(a, b) for b in grid for a in grid if a * a + b * b < 1.0]
    check(np.allclose(np.c_[x, y], inside, rtol=0, atol=1e-15) and g[0] == 1.0 / len(inside),
          "disc lattice: %d points, expected %d" % (len(x), len(inside)))
    m, rc = 12, 0.5
    x, y, g = V.initial_state(V.resolve({"initial": {"kind": "lamb_oseen", "rings": m,
                                                     "core_radius": rc, "extent": 4.0,
                                                     "total_circulation": 2.0}}))
    check(len(x) == 1 + 3 * m * (m + 1), "Lamb-Oseen N = 1 + 3 M (M + 1)")
    check(abs(g.sum() - 2.0) < 1e-14, "Lamb-Oseen circulation %.16g" % g.sum())
    second = np.sum(g * (x * x + y * y)) / (2.0 * rc * rc)
    check(abs(second - 1.0) < 2e-2, "Lamb-Oseen second moment / (Gamma rc^2) = %.4f" % second)
    x, y, g = V.initial_state(V.resolve({"physics": {"periodic_x": True, "period": 2.0},
                                         "initial": {"kind": "sheet", "n": 8}}))
    check(abs(x[2] - 2.0 * (0.25 + 0.01)) < 1e-15 and abs(y[2] + 0.02) < 1e-15 and
          g[0] == 1.0 / 8, "sheet points")
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "v.csv"
        p.write_text("# three vortices\ngamma,x,y\n1.5,0.1,0.2\n-2,3,4\n\n0.25,-1e-3,5e2\n")
        x, y, g = V.initial_state({"initial": {"kind": "file", "path": str(p)}, "_dir": tmp})
        check(list(x) == [0.1, 3.0, -1e-3] and list(y) == [0.2, 4.0, 500.0] and
              list(g) == [1.5, -2.0, 0.25], "CSV initial state")


def check_validation_scripts():
    """The validation scripts on small CPython runs (--python) and on doctored H5MD files: PASS
    (exit 0) on good data, FAIL (1) when an identity, invariant or the symmetry is broken, 2 for a
    file they cannot use."""
    import contextlib
    import io

    import h5py
    import vortex_identities
    import vortex_invariants
    import vortex_sheet

    def run(main, args):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            rc = main(args)
        return rc, out.getvalue()

    with tempfile.TemporaryDirectory() as tmp:
        rc, out = run(vortex_identities.main, ["--python", "--n", "40", "--regularisation",
                                               "gaussian", "--delta", "0.1"])
        check(rc == 0 and "PASS" in out, "vortex_identities --python: " + out)
        cfg_path = Path(tmp) / "tiny.yaml"
        cfg_path.write_text((ROOT / "configs/ci/vortex_tiny.yaml").read_text().replace(
            "n: 64", "n: 16").replace("dt: 0.05", "dt: 0.01"))
        rc, out = run(vortex_invariants.main, ["--python", "--config", str(cfg_path), "--steps",
                                               "10", "--out", tmp, "--plot", "none"])
        check(rc == 0 and "PASS" in out, "vortex_invariants --python: " + out)
        h5 = Path(tmp) / "vortex_tiny.h5"
        rc, out = run(vortex_identities.main, ["--file", str(h5), "--frame", "-1"])
        check(rc == 0, "vortex_identities --file on a good run: " + out)
        with h5py.File(h5, "r+") as f:
            f["particles/all/velocity/value"][-1, 3, 0] *= 1.0 + 1e-9
            f["observables/hamiltonian/value"][-1] *= 1.0 + 1e-5
        rc, out = run(vortex_identities.main, ["--file", str(h5), "--frame", "-1"])
        check(rc == 1 and "FAIL" in out, "vortex_identities misses a wrong velocity: " + out)
        rc, out = run(vortex_invariants.main, [str(h5), "--plot", "none"])
        check(rc == 1 and "hamiltonian" in out and "FAIL" in out,
              "vortex_invariants misses an H drift: " + out)
        rc, out = run(vortex_invariants.main, [str(Path(tmp) / "absent.h5"), "--plot", "none"])
        check(rc == 2, "vortex_invariants on a missing file: exit %d" % rc)
        rc, out = run(vortex_sheet.main, ["--python", "--n", "16", "--steps", "6", "--out", tmp,
                                          "--plot", "none"])
        check(rc == 0 and "PASS" in out, "vortex_sheet --python: " + out)
        sheet = Path(tmp) / "vortex_sheet.h5"
        with h5py.File(sheet, "r+") as f:
            f["particles/all/position/value"][-1, 5, 1] += 1e-5
        rc, out = run(vortex_sheet.main, [str(sheet), "--plot", "none"])
        check(rc == 1 and "symmetry" in out and "FAIL" in out,
              "vortex_sheet misses a broken symmetry: " + out)
        rc, out = run(vortex_sheet.main, [str(sheet), "--plot", "none", "--sym-until", "0.1"])
        check(rc == 0 and "later (not bounded" in out and "1.000e-05" in out,
              "vortex_sheet --sym-until: the last frame (t = 0.15) is reported, not checked: "
              + out)
        # The growth-rate oracle behind the default window: the point-vortex sheet's
        # Kelvin-Helmholtz rates pi k (Gamma = L = 1) at small k, and a delta that bounds them.
        rates = V.sheet_growth_rates(200, 1.0 / 200, (P.POINT, 0.0, 1, 1.0))
        check(all(abs(rates[k] - math.pi * k) < 0.02 * math.pi * k for k in (1, 2, 3)),
              "sheet_growth_rates, point sheet: %s" % rates[:4])
        blob = V.sheet_growth_rates(200, 1.0 / 200, (P.KRASNY, 0.1, 1, 1.0))
        check(blob.max() < 0.2 * rates.max() and 0.8 * rates[1] < blob[1] < rates[1],
              "sheet_growth_rates, Krasny sheet: max %g" % blob.max())
        rc, out = run(vortex_sheet.main, [str(h5), "--plot", "none"])
        check(rc == 2, "vortex_sheet on a non-periodic run: exit %d" % rc)


CHECKS = {
    "kernel_language": check_kernel_language,
    "velocity_numpy": check_velocity_numpy,
    "tiled_kernel": check_tiled_kernel,
    "identities": check_identities,
    "periodic_images": check_periodic_images,
    "hamiltonian": check_hamiltonian,
    "exp1": check_exp1,
    "gaussian_core": check_gaussian_core,
    "rotation_order": check_rotation_order,
    "conservation": check_conservation,
    "stage_kernels": check_stage_kernels,
    "reductions": check_reductions,
    "initial_states": check_initial_states,
    "validation_scripts": check_validation_scripts,
}


def main(argv):
    names = argv[1:] or list(CHECKS)
    for name in names:
        if name not in CHECKS:
            print("unknown check %r; known: %s" % (name, ", ".join(CHECKS)))
            return 2
        CHECKS[name]()
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("ok: " + ", ".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
