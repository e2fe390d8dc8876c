"""Shared code of the vortex validation scripts: the CPython reference of the vortex driver.

- `load_config` reads a vortex YAML file (apps/vortex/README.md) and fills in the defaults;
- `initial_state` builds the initial vortices exactly as the README defines them (the C++ driver
  implements the same definitions; `MT19937_64` is std::mt19937_64, so random initial states
  agree too);
- `PySim` runs apps/vortex/physics.py's kernels in CPython, element by element on NumPy arrays,
  in the driver's step sequence for each integrator, and samples the invariants;
- `write_h5md` / `read_h5md` use the layout of the vortex H5MD file;
- `find_binary` / `run_binary` run build/apps/vortex/vortex when it exists.

CPython evaluates O(N^2) pair sums at roughly 3e5 pairs per second, so --python modes use small N.
"""

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "apps" / "vortex")]
import physics as P  # noqa: E402

REGULARISATIONS = {"point": P.POINT, "krasny": P.KRASNY, "gaussian": P.GAUSSIAN}
INTEGRATORS = ("euler", "rk2", "heun", "rk4")
ORDER = {"euler": 1, "rk2": 2, "heun": 2, "rk4": 4}
OBSERVABLES = ("circulation", "impulse_x", "impulse_y", "angular_impulse", "hamiltonian")


# ---- std::mt19937_64 and the driver's uniform transform (apps/common/random.h) ---------------

class MT19937_64:
    """std::mt19937_64 (the C++ standard fixes its output for every seed)."""
    _N, _M = 312, 156
    _MASK = (1 << 64) - 1

    def __init__(self, seed=5489):
        self.mt = [0] * self._N
        self.mt[0] = seed & self._MASK
        for i in range(1, self._N):
            prev = self.mt[i - 1]
            self.mt[i] = (6364136223846793005 * (prev ^ (prev >> 62)) + i) & self._MASK
        self.index = self._N

    def _twist(self):
        mt = self.mt
        for i in range(self._N):
            x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % self._N] & 0x7FFFFFFF)
            y = x >> 1
            if x & 1:
                y ^= 0xB5026F5AA96619E9
            mt[i] = mt[(i + self._M) % self._N] ^ y
        self.index = 0

    def __call__(self):
        if self.index >= self._N:
            self._twist()
        x = self.mt[self.index]
        self.index += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & self._MASK

    def uniform01(self):
        """Uniform in [0, 1) from the top 53 bits of one draw (smelt::apps::uniform01)."""
        return float(self() >> 11) * 2.0 ** -53


# ---- configuration ---------------------------------------------------------------------------

DEFAULTS = {
    "backend": "cpu", "precision": "double", "threads": 0,
    "physics": {"regularisation": "point", "periodic_x": False},
    "integrator": {"kind": "rk4"},
    "evaluation": {"method": "auto", "tile": 128},
    "output": {"directory": "out/vortex", "prefix": "vortex", "frame_interval": 100,
               "thermo_interval": 100, "checkpoint_interval": 0, "h5md": True, "vtk": False,
               "csv": True, "progress": True, "checkpoint": True},
}

INITIAL_DEFAULTS = {
    "patch": {"shape": "disc", "radius": 1.0, "side": 2.0, "center": [0.0, 0.0],
              "total_circulation": 1.0, "circulation_spread": 0.0, "seed": 1},
    "lattice": {"shape": "square", "radius": 1.0, "side": 2.0, "center": [0.0, 0.0],
                "total_circulation": 1.0},
    "lamb_oseen": {"total_circulation": 1.0, "core_radius": 1.0, "extent": 3.0,
                   "center": [0.0, 0.0]},
    "pair": {"separation": 1.0, "circulations": [1.0, 1.0], "center": [0.0, 0.0]},
    "opposite_pair": {"separation": 1.0, "circulation": 1.0, "center": [0.0, 0.0]},
    "ring": {"radius": 1.0, "circulation": 1.0, "phase": 0.0, "perturbation": 0.0, "seed": 1,
             "center": [0.0, 0.0]},
    "sheet": {"amplitude": 0.01, "total_circulation": 1.0},
    "file": {"frame": -1},
}



def h5md_box_edges(box, frame=-1):
    """The box edges of /particles/<group>/box at a frame: edges/value [frames, D, D] (Smelt's
    time-dependent box, a diagonal matrix) or [frames, D], or one edges dataset [D]."""
    import h5py
    e = box["edges"]
    e = np.asarray(e["value"][frame] if isinstance(e, h5py.Group) else e[()], dtype=float)
    return np.diag(e) if e.ndim == 2 else e

def resolve(cfg):
    """A config dict with every default filled in (no range checks: the C++ driver does those)."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in DEFAULTS.items()}
    for k, v in cfg.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k].update(v)
        else:
            out[k] = v
    init = dict(out["initial"])
    kind = init["kind"]
    if kind not in INITIAL_DEFAULTS:
        raise ValueError("initial.kind: unknown kind %r" % kind)
    out["initial"] = {**INITIAL_DEFAULTS[kind], **init}
    return out


def load_config(path):
    import yaml
    with open(path) as f:
        cfg = resolve(yaml.safe_load(f))
    cfg["_dir"] = str(Path(path).resolve().parent)
    return cfg


def physics_args(cfg):
    """(regularisation, delta, periodic, period) as the kernels take them."""
    ph = cfg["physics"]
    reg = REGULARISATIONS[ph["regularisation"]]
    delta = float(ph.get("delta", 0.0))
    periodic = 1 if ph.get("periodic_x", False) else 0
    period = float(ph.get("period", 1.0)) if periodic else 1.0
    return reg, delta, periodic, period


# ---- initial states (apps/vortex/README.md, "Initial conditions") ----------------------------

def initial_state(cfg):
    """x, y, gamma (float64 arrays) of cfg['initial'] as the README defines them."""
    ini = cfg["initial"]
    kind = ini["kind"]
    cx, cy = (float(c) for c in ini.get("center", [0.0, 0.0]))
    xs, ys, gs = [], [], []
    if kind == "patch":
        n = int(ini["n"])
        rng = MT19937_64(int(ini["seed"]))
        base = float(ini["total_circulation"]) / n
        spread = float(ini["circulation_spread"])
        for _ in range(n):
            if ini["shape"] == "disc":
                r = float(ini["radius"])
                while True:
                    px = (2.0 * rng.uniform01() - 1.0) * r
                    py = (2.0 * rng.uniform01() - 1.0) * r
                    if px * px + py * py < r * r:
                        break
            else:
                s = float(ini["side"])
                px = (rng.uniform01() - 0.5) * s
                py = (rng.uniform01() - 0.5) * s
            xs.append(cx + px)
            ys.append(cy + py)
            gs.append(base * (1.0 + spread * (2.0 * rng.uniform01() - 1.0)) if spread > 0
                      else base)
    elif kind == "lattice":
        m = int(ini["n_side"])
        disc = ini["shape"] == "disc"
        r = float(ini["radius"])
        s = 2.0 * r if disc else float(ini["side"])
        for j in range(m):
            for i in range(m):
                px = -0.5 * s + (i + 0.5) * s / m
                py = -0.5 * s + (j + 0.5) * s / m
                if disc and not px * px + py * py < r * r:
                    continue
                xs.append(cx + px)
                ys.append(cy + py)
        gs = [float(ini["total_circulation"]) / len(xs)] * len(xs)
    elif kind == "lamb_oseen":
        big_m = int(ini["rings"])
        rc = float(ini["core_radius"])
        h = float(ini["extent"]) * rc / big_m
        total = float(ini["total_circulation"])
        for m in range(big_m + 1):
            nm = 1 if m == 0 else 6 * m
            r_in = 0.0 if m == 0 else (m - 0.5) * h
            r_out = (m + 0.5) * h
            outer = 0.0 if m == big_m else math.exp(-(r_out * r_out) / (rc * rc))
            g = total * (math.exp(-(r_in * r_in) / (rc * rc)) - outer) / nm
            for k in range(nm):
                th = 2.0 * math.pi * k / nm
                xs.append(cx + m * h * math.cos(th))
                ys.append(cy + m * h * math.sin(th))
                gs.append(g)
    elif kind == "pair":
        d = float(ini["separation"])
        xs, ys = [cx - 0.5 * d, cx + 0.5 * d], [cy, cy]
        gs = [float(g) for g in ini["circulations"]]
    elif kind == "opposite_pair":
        d, g = float(ini["separation"]), float(ini["circulation"])
        xs, ys, gs = [cx - 0.5 * d, cx + 0.5 * d], [cy, cy], [g, -g]
    elif kind == "ring":
        n = int(ini["n"])
        r0, eps = float(ini["radius"]), float(ini["perturbation"])
        rng = MT19937_64(int(ini["seed"]))
        for k in range(n):
            r = r0 * (1.0 + eps * (2.0 * rng.uniform01() - 1.0)) if eps > 0 else r0
            th = float(ini["phase"]) + 2.0 * math.pi * k / n
            xs.append(cx + r * math.cos(th))
            ys.append(cy + r * math.sin(th))
            gs.append(float(ini["circulation"]))
    elif kind == "sheet":
        n = int(ini["n"])
        length = float(cfg["physics"]["period"])
        amp = float(ini["amplitude"])
        for j in range(n):
            s = j / n
            xs.append(length * (s + amp * math.sin(2.0 * math.pi * s)))
            ys.append(-length * amp * math.sin(2.0 * math.pi * s))
            gs.append(float(ini["total_circulation"]) / n)
    elif kind == "file":
        path = Path(cfg.get("_dir", ".")) / ini["path"]
        fmt = ini.get("format") or ("csv" if path.suffix == ".csv" else "h5md")
        if fmt == "csv":
            return read_csv(path)
        d = read_h5md(path)
        return (d["position"][ini["frame"], :, 0].copy(), d["position"][ini["frame"], :, 1].copy(),
                d["circulation"].copy())
    return (np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64),
            np.array(gs, dtype=np.float64))


def read_csv(path):
    rows = [ln.strip() for ln in Path(path).read_text().splitlines()]
    rows = [r for r in rows if r and not r.startswith("#")]
    head = [h.strip() for h in rows[0].split(",")]
    cols = [head.index(c) for c in ("x", "y", "gamma")]
    data = np.array([[float(v) for v in r.split(",")] for r in rows[1:]], dtype=np.float64)
    return tuple(data[:, c].copy() for c in cols)


# ---- independent NumPy evaluation (oracle: does not use physics.py) ---------------------------

def numpy_pair_velocities(x, y, g, phys, lo, hi):
    """(U, V): the velocity each source j induces at each target k in [lo, hi), shape
    (hi - lo, N), by NumPy alone: direct kernels (unbounded), NumPy's complex cot plus the
    Gaussian tails of the images |m| <= 3 (periodic point and Gaussian), Krasny's periodic
    formula as written in his paper (periodic Krasny). The self term (j = k) is 0."""
    reg, delta, periodic, length = phys
    dx = x[lo:hi, None] - x[None, :]
    dy = y[lo:hi, None] - y[None, :]
    off = np.ones(dx.shape, dtype=bool)
    rows = np.arange(lo, hi)
    off[rows - lo, rows] = False
    gj = g[None, :]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if not periodic:
            r2 = np.where(off, dx * dx + dy * dy, 1.0)
            if reg == P.POINT:
                k = 1.0 / r2
            elif reg == P.KRASNY:
                k = 1.0 / (r2 + delta ** 2)
            else:
                k = -np.expm1(-r2 / delta ** 2) / r2
            k = np.where(off, k, 0.0) * gj / (2 * np.pi)
            return -k * dy, k * dx
        if reg == P.KRASNY:
            a, b = 2 * np.pi * dx / length, 2 * np.pi * dy / length
            w = gj / (2 * length * (np.cosh(b) - np.cos(a) + delta ** 2))
            return -np.sinh(b) * w, np.sin(a) * w
        z = np.where(off, dx + 1j * dy, 1.0)
        w = np.where(off, gj / (2j * length * np.tan(np.pi * z / length)), 0.0)  # u - i v
        uu, vv = w.real.copy(), -w.imag
        if reg == P.GAUSSIAN:
            base = dx - length * np.round(dx / length)
            for m in range(-3, 4):
                ddx = base + m * length
                r2 = ddx * ddx + dy * dy
                e = np.where(r2 > 0, np.exp(-r2 / delta ** 2) / np.where(r2 > 0, r2, 1.0), 0.0)
                uu += e * dy * gj / (2 * np.pi)
                vv -= e * ddx * gj / (2 * np.pi)
        return uu, vv


def numpy_velocity(x, y, g, phys, chunk=512, with_scale=False):
    """u, v at every vortex by NumPy (numpy_pair_velocities summed); with_scale also returns
    s_k = sum_j (|U_kj| + |V_kj|), the size of the terms the sums cancel (round-off scale)."""
    n = len(x)
    u, v, s = np.zeros(n), np.zeros(n), np.zeros(n)
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        uu, vv = numpy_pair_velocities(x, y, g, phys, lo, hi)
        u[lo:hi], v[lo:hi] = uu.sum(axis=1), vv.sum(axis=1)
        s[lo:hi] = np.abs(uu).sum(axis=1) + np.abs(vv).sum(axis=1)
    return (u, v, s) if with_scale else (u, v)


def sheet_growth_rates(n, gamma, phys):
    """Linear growth rates of the flat periodic sheet of n points of circulation gamma each
    (x_j = j L / n, y_j = 0, L = phys[3]) under the kernel phys, one per Fourier mode k = 0..n-1:
    the largest real part of the eigenvalues of the 2 x 2 system a perturbation
    (dx_j, dy_j) = e^{2 pi i k j / n} (dx, dy) obeys. The pair Jacobian comes from
    numpy_pair_velocities by central differences in the target's position. For Krasny's kernel
    with delta -> 0 the rates tend to the Kelvin-Helmholtz pi k Sum(gamma) / L^2 of the sheet."""
    length = phys[3]
    xs = np.arange(n) * length / n
    h = 1e-6 * length / n
    jac = np.zeros((n, 2, 2))  # jac[m][c][a]: d(velocity component c from source m)/d(target a)
    for a in (0, 1):
        for sign in (1.0, -1.0):
            x, y = xs.copy(), np.zeros(n)
            (x if a == 0 else y)[0] += sign * h
            uu, vv = numpy_pair_velocities(x, y, np.full(n, gamma), phys, 0, 1)
            jac[:, 0, a] += sign * uu[0] / (2 * h)
            jac[:, 1, a] += sign * vv[0] / (2 * h)
    # target j, source j + m: d(vel_j)/dt = sum_m J_m (d_j - d_{j+m}); a mode gives
    # M(k) = sum_m J_m (1 - e^{2 pi i k m / n}).
    phase = 1.0 - np.exp(2j * np.pi * np.outer(np.arange(n), np.arange(n)) / n)
    m = np.einsum("km,mca->kca", phase, jac)
    return np.linalg.eigvals(m).real.max(axis=1)


def numpy_rotation_exact(x, y, g, phys, chunk=512):
    """(1/4pi) sum_{j != k} G_j G_k r^2 K(r^2), unbounded: what sum G (x v - y u) must equal."""
    reg, delta = phys[0], phys[1]
    if reg == P.POINT:
        return (math.fsum(g) ** 2 - math.fsum(g * g)) / (4 * np.pi)
    total = []
    for lo in range(0, len(x), chunk):
        hi = min(len(x), lo + chunk)
        dx = x[lo:hi, None] - x[None, :]
        dy = y[lo:hi, None] - y[None, :]
        r2 = dx * dx + dy * dy
        f = r2 / (r2 + delta ** 2) if reg == P.KRASNY else -np.expm1(-r2 / delta ** 2)
        f[np.arange(hi - lo), np.arange(lo, hi)] = 0.0
        total.append(float(g[lo:hi] @ (f @ g)))
    return math.fsum(total) / (4 * np.pi)


# ---- the driver's step sequence, in CPython --------------------------------------------------

def elementwise(f, n, *args):
    for i in range(n):
        f(i, *args)


def reduce_sum(f, n, *args):
    return math.fsum(f(i, *args) for i in range(n))


class PySim:
    """The vortex driver's state and step loop with physics.py run in CPython (elementwise path)."""

    def __init__(self, x, y, gamma, physics, integrator="rk4", dt=0.01):
        self.n = len(x)
        self.x, self.y, self.gamma = (np.array(a, dtype=np.float64) for a in (x, y, gamma))
        self.u, self.v, self.xs, self.ys, self.au, self.av = (np.zeros(self.n) for _ in range(6))
        self.phys = tuple(physics)
        self.integrator, self.dt = integrator, dt
        self.step_count, self.time = 0, 0.0

    def velocity(self, x, y):
        """u, v = velocity at the positions x, y (Elementwise over targets)."""
        elementwise(P.velocity, self.n, x, y, self.gamma, self.u, self.v, self.n, *self.phys)

    def step(self):
        """One step; the sequences of README.md, "Integrators"."""
        dt, n = self.dt, self.n
        x, y, u, v, xs, ys, au, av = (self.x, self.y, self.u, self.v, self.xs, self.ys, self.au,
                                      self.av)
        self.velocity(x, y)
        if self.integrator == "euler":
            elementwise(P.euler_step, n, x, y, u, v, dt)
        elif self.integrator == "rk2":
            elementwise(P.stage_position, n, x, y, u, v, xs, ys, 0.5 * dt)
            self.velocity(xs, ys)
            elementwise(P.euler_step, n, x, y, u, v, dt)
        elif self.integrator == "heun":
            elementwise(P.stage_first, n, x, y, u, v, xs, ys, au, av, dt)
            self.velocity(xs, ys)
            elementwise(P.stage_finish, n, x, y, u, v, au, av, 1.0, 0.5 * dt)
        elif self.integrator == "rk4":
            elementwise(P.stage_first, n, x, y, u, v, xs, ys, au, av, 0.5 * dt)
            self.velocity(xs, ys)
            elementwise(P.stage_next, n, x, y, u, v, xs, ys, au, av, 2.0, 0.5 * dt)
            self.velocity(xs, ys)
            elementwise(P.stage_next, n, x, y, u, v, xs, ys, au, av, 2.0, dt)
            self.velocity(xs, ys)
            elementwise(P.stage_finish, n, x, y, u, v, au, av, 1.0, dt / 6.0)
        else:
            raise ValueError("unknown integrator %r" % self.integrator)
        self.step_count += 1
        self.time = self.step_count * dt

    def observables(self):
        """The five logged invariants (Reductions with physics.py's maps)."""
        n, a = self.n, (self.x, self.y, self.gamma)
        return {
            "circulation": reduce_sum(P.circulation_map, n, *a),
            "impulse_x": reduce_sum(P.impulse_x_map, n, *a),
            "impulse_y": reduce_sum(P.impulse_y_map, n, *a),
            "angular_impulse": reduce_sum(P.angular_impulse_map, n, *a),
            "hamiltonian": reduce_sum(P.hamiltonian_map, n, *a, n, *self.phys),
        }


def run_python(cfg, steps=None, progress=False):
    """Runs a config in CPython; returns the H5MD-like dict write_h5md takes."""
    x, y, g = initial_state(cfg)
    it = cfg["integrator"]
    sim = PySim(x, y, g, physics_args(cfg), it["kind"], float(it["dt"]))
    steps = int(it["steps"]) if steps is None else steps
    out = cfg["output"]
    fi, ti = int(out["frame_interval"]), int(out["thermo_interval"])
    frames = {"step": [], "time": [], "position": [], "velocity": []}
    obs = {name: [] for name in OBSERVABLES}
    obs_step, obs_time = [], []
    for s in range(steps + 1):
        if s % fi == 0 or s == steps:
            sim.velocity(sim.x, sim.y)
            frames["step"].append(s)
            frames["time"].append(sim.time)
            frames["position"].append(np.stack([sim.x, sim.y], axis=1))
            frames["velocity"].append(np.stack([sim.u, sim.v], axis=1))
        if s % ti == 0 or s == steps:
            for k, val in sim.observables().items():
                obs[k].append(val)
            obs_step.append(s)
            obs_time.append(sim.time)
            if progress:
                print("  step %d  t %.4g  H %.12g" % (s, sim.time, obs["hamiltonian"][-1]),
                      flush=True)
        if s < steps:
            sim.step()
    return {
        "position": np.array(frames["position"]), "velocity": np.array(frames["velocity"]),
        "frame_step": np.array(frames["step"]), "frame_time": np.array(frames["time"]),
        "circulation": sim.gamma.copy(),
        "observables": {k: (np.array(obs_step), np.array(obs_time), np.array(v))
                        for k, v in obs.items()},
        "periodic": bool(cfg["physics"].get("periodic_x", False)),
        "period": float(cfg["physics"].get("period", 0.0)),
    }


# ---- H5MD in the vortex layout (apps/vortex/README.md, "Output") -----------------------------

def write_h5md(path, d, config_text="", creator="vortex_common.py (CPython reference)"):
    import h5py
    with h5py.File(path, "w") as f:
        h = f.create_group("h5md")
        h.attrs["version"] = np.array([1, 1], dtype=np.int32)
        h.create_group("author").attrs["name"] = "smelt"
        h.create_group("creator").attrs["name"] = creator
        part = f.create_group("particles/all")
        box = part.create_group("box")
        box.attrs["dimension"] = 2
        box.attrs["boundary"] = np.array(
            [b"periodic" if d["periodic"] else b"none", b"none"])
        pos = d["position"]
        ext = np.ptp(pos[0], axis=0) if len(pos) else np.zeros(2)
        box.create_dataset("edges", data=np.array(
            [d["period"] if d["periodic"] else ext[0], ext[1]], dtype=np.float64))
        for name in ("position", "velocity"):
            g = part.create_group(name)
            g.create_dataset("value", data=d[name])
            g.create_dataset("step", data=d["frame_step"].astype(np.int64))
            g.create_dataset("time", data=d["frame_time"].astype(np.float64))
        # circulation is a frame field like position (the app kit writes every per-particle
        # field as a time series): value [frames, N]
        g = part.create_group("circulation")
        g.create_dataset("value", data=np.tile(d["circulation"], (len(d["frame_step"]), 1)))
        g.create_dataset("step", data=d["frame_step"].astype(np.int64))
        g.create_dataset("time", data=d["frame_time"].astype(np.float64))
        for name, (st, tm, val) in d["observables"].items():
            g = f.create_group("observables/" + name)
            g.create_dataset("value", data=val)
            g.create_dataset("step", data=st.astype(np.int64))
            g.create_dataset("time", data=tm.astype(np.float64))
        f.create_group("parameters").attrs["config_yaml"] = config_text


def circulation(part):
    """The circulations [N] of /particles/all: the first frame of the circulation field
    (value [frames, N]), or a time-independent [N] dataset. They are constant in a run."""
    import h5py
    c = part["circulation"]
    if isinstance(c, h5py.Group):
        return np.asarray(c["value"][0], dtype=np.float64)
    return np.asarray(c[()], dtype=np.float64)


def read_h5md(path):
    """The vortex H5MD file as a dict (same keys as run_python's result)."""
    import h5py
    with h5py.File(path, "r") as f:
        part = f["particles/all"]
        bnd = [b.decode() if isinstance(b, bytes) else str(b)
               for b in part["box"].attrs["boundary"]]
        d = {
            "position": np.asarray(part["position/value"][()], dtype=np.float64),
            "position_dtype": np.dtype(part["position/value"].dtype),
            "frame_step": np.asarray(part["position/step"][()]),
            "frame_time": np.asarray(part["position/time"][()], dtype=np.float64),
            "circulation": circulation(part),
            "periodic": bnd[0] == "periodic",
            "period": float(h5md_box_edges(part["box"])[0]),
            "observables": {},
        }
        if "velocity" in part:
            d["velocity"] = np.asarray(part["velocity/value"][()], dtype=np.float64)
        for name in OBSERVABLES:
            if "observables/" + name in f:
                o = f["observables/" + name]
                d["observables"][name] = (np.asarray(o["step"][()]), np.asarray(o["time"][()]),
                                          np.asarray(o["value"][()], dtype=np.float64))
        cfg = f["parameters"].attrs.get("config_yaml", "") if "parameters" in f else ""
        d["config_yaml"] = cfg.decode() if isinstance(cfg, bytes) else str(cfg)
    return d


# ---- the vortex binary -----------------------------------------------------------------------

def find_binary(explicit=None):
    """The vortex binary: --binary, $SMELT_VORTEX, or build/apps/vortex/vortex; None if absent."""
    for cand in (explicit, os.environ.get("SMELT_VORTEX"), ROOT / "build/apps/vortex/vortex"):
        if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
            return str(cand)
    return None


def run_binary(binary, config_path, extra_args=()):
    """Runs `vortex run CONFIG ...`; raises RuntimeError with its output when it fails."""
    cmd = [binary, "run", str(config_path), *extra_args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed (exit %d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout,
                                                          r.stderr))
    return r.stdout


def dump_yaml(cfg):
    """YAML text of a config dict (keys starting with '_' left out)."""
    import yaml
    return yaml.safe_dump({k: v for k, v in cfg.items() if not k.startswith("_")},
                          sort_keys=False)
