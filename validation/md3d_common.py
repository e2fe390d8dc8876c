"""Shared helpers of the md3d validation scripts: running the md3d binary on a derived config,
reading its H5MD output (layout: apps/md3d/README.md, "Output"), and the independent physics
the scripts compare against (lattice sums, LJ tail corrections), written here with NumPy only.
"""

import copy
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BINARY = ROOT / "build" / "apps" / "md3d" / "md3d"

# The summary line md3d prints at the end of a run (apps/md3d/README.md, "Running").
SUMMARY = re.compile(r"(done|stopped) after (\d+) steps in ([0-9.eE+-]+) s: ([0-9.eE+-]+) "
                     r"particle-steps/s")


class ScriptError(Exception):
    """A problem that is not a validation failure (missing binary, unreadable file): exit 2."""


# ---- configs and runs ------------------------------------------------------------------------


def h5md_box_edges(box, frame=-1):
    """The box edges of /particles/<group>/box at a frame: edges/value [frames, D, D] (Smelt's
    time-dependent box, a diagonal matrix) or [frames, D], or one edges dataset [D]."""
    import h5py
    e = box["edges"]
    e = np.asarray(e["value"][frame] if isinstance(e, h5py.Group) else e[()], dtype=float)
    return np.diag(e) if e.ndim == 2 else e

def load_config(path):
    import yaml
    with open(path) as f:
        return yaml.safe_load(f)


def write_config(cfg, path):
    import yaml
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        yaml.safe_dump(cfg, f, sort_keys=False)


def derived(cfg, **sections):
    """A deep copy of cfg with sections updated: derived(cfg, output={...}, integrator={...})."""
    out = copy.deepcopy(cfg)
    for name, values in sections.items():
        if isinstance(values, dict):
            out.setdefault(name, {})
            out[name].update(values)
        else:
            out[name] = values
    return out


def run_md3d(binary, cfg, workdir, name, threads=None, timeout=None):
    """Writes cfg as <workdir>/<name>.yaml (output into <workdir>/<name>), runs `md3d run` on it.

    Returns dict(h5=path, csv=path, stdout=text, seconds=float, rate=particle-steps/s or None).
    """
    binary = Path(binary)
    if not binary.is_file():
        raise ScriptError("md3d binary not found at %s (build it: ninja -C build md3d, or pass "
                          "--binary)" % binary)
    workdir = Path(workdir)
    out_dir = workdir / name
    cfg = derived(cfg, output={"directory": str(out_dir), "prefix": name, "progress": False})
    cfg_path = workdir / (name + ".yaml")
    write_config(cfg, cfg_path)
    # <workdir>/<name> is this script's own output: a rerun replaces it.
    cmd = [str(binary), "run", str(cfg_path), "--overwrite"]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    env = dict(os.environ)
    env.setdefault("OMP_WAIT_POLICY", "passive")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise ScriptError("%s exited with %d:\n%s%s" % (" ".join(cmd), proc.returncode,
                                                       proc.stdout[-3000:], proc.stderr[-3000:]))
    m = SUMMARY.search(proc.stdout)
    return {"h5": out_dir / (name + ".h5"), "csv": out_dir / (name + "_thermo.csv"),
            "stdout": proc.stdout, "seconds": seconds,
            "loop_seconds": float(m.group(3)) if m else None,
            "rate": float(m.group(4)) if m else None}


# ---- H5MD ------------------------------------------------------------------------------------

def read_observables(path, names=None):
    """{name: (step, time, value)} for /observables/<name> (all of them unless names given)."""
    import h5py
    out = {}
    with h5py.File(path, "r") as f:
        obs = f["observables"]
        for name in (names or list(obs.keys())):
            g = obs[name]
            out[name] = (np.asarray(g["step"][()]), np.asarray(g["time"][()], dtype=float),
                         np.asarray(g["value"][()], dtype=float))
    return out


def per_particle(particles, name, frame, dtype):
    """/particles/all/<name> at a frame: a time series (value [frames, N], as md3d writes species)
    or a time-independent dataset [N]."""
    import h5py
    item = particles[name]
    if isinstance(item, h5py.Group):
        return np.asarray(item["value"][frame], dtype=dtype)
    return np.asarray(item[()], dtype=dtype)


def read_frame(path, frame=0):
    """One frame of /particles/all: positions, velocities, images, species, masses, box."""
    import h5py
    with h5py.File(path, "r") as f:
        p = f["particles/all"]
        box = p["box"]
        boundary = [b.decode() if isinstance(b, bytes) else str(b)
                    for b in box.attrs["boundary"]]
        state = {
            "step": int(p["position/step"][frame]),
            "time": float(p["position/time"][frame]),
            "position": np.asarray(p["position/value"][frame], dtype=float),
            "velocity": np.asarray(p["velocity/value"][frame], dtype=float),
            "image": (np.asarray(p["image/value"][frame], dtype=np.int64) if "image" in p
                      else None),
            "species": per_particle(p, "species", frame, np.int64),
            "mass": per_particle(p, "mass", frame, float) if "mass" in p else None,
            "edges": h5md_box_edges(box, frame),
            "periodic": [b == "periodic" for b in boundary],
        }
        params = f.get("parameters")
        state["config_yaml"] = params.attrs.get("config_yaml") if params is not None else None
    return state


# ---- independent physics ---------------------------------------------------------------------

BASES = {"sc": [(0.0, 0.0, 0.0)],
         "bcc": [(0.0, 0.0, 0.0), (0.5, 0.5, 0.5)],
         "fcc": [(0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.0, 0.5), (0.0, 0.5, 0.5)]}


def lattice_constant(kind, density):
    return (len(BASES[kind]) / density) ** (1.0 / 3.0)


def lattice_vectors(kind, a, rc):
    """Every vector from one site of a perfect sc/bcc/fcc lattice to another, shorter than rc."""
    m = int(math.ceil(rc / a)) + 1
    g = np.arange(-m, m + 1)
    cells = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
    sites = ((cells[:, None, :] + np.array(BASES[kind])[None]) * a).reshape(-1, 3)
    r = np.linalg.norm(sites, axis=1)
    return sites[(r > 0) & (r < rc)]


def lattice_sum(kind, a, rc, eps=1.0, sigma=1.0, shift=False):
    """Potential energy and virial W per particle of a perfect lattice (all sites equivalent):
    U/N = 1/2 sum_R u(|R|), W/N = 1/2 sum_R 24 eps [2 (sigma/R)^12 - (sigma/R)^6]."""
    r = np.linalg.norm(lattice_vectors(kind, a, rc), axis=1)
    sr6 = (sigma / r) ** 6
    u = 4.0 * eps * (sr6 * sr6 - sr6)
    if shift:
        src6 = (sigma / rc) ** 6
        u = u - 4.0 * eps * (src6 * src6 - src6)
    w = 24.0 * eps * (2.0 * sr6 * sr6 - sr6)
    return 0.5 * math.fsum(u), 0.5 * math.fsum(w)


def lj_tail(counts, volume, eps, sig, rc):
    """U_tail, P_tail over ordered type pairs (Allen & Tildesley 2nd ed. sec. 2.8):
    U = sum_ab (8/3) pi N_a N_b / V eps s^3 [x^9/3 - x^3], P = sum_ab (16/3) pi N_a N_b / V^2
    eps s^3 [2 x^9/3 - x^3], x = s / rc."""
    u = p = 0.0
    for a in range(len(counts)):
        for b in range(len(counts)):
            s3 = sig[a][b] ** 3
            x3 = (sig[a][b] / rc[a][b]) ** 3
            u += 8 * math.pi / 3 * counts[a] * counts[b] / volume * eps[a][b] * s3 * (x3 ** 3 / 3 - x3)
            p += 16 * math.pi / 3 * counts[a] * counts[b] / volume ** 2 * eps[a][b] * s3 * (
                2 * x3 ** 3 / 3 - x3)
    return u, p


def pair_tables(cfg):
    """(type names, eps, sigma, r_cut as ntypes x ntypes lists, shift, tail) from a config."""
    system, pot = cfg.get("system", {}), cfg.get("potential", {})
    types = system.get("types", ["A"])
    nt = len(types)
    eps = [[None] * nt for _ in range(nt)]
    sig = [[None] * nt for _ in range(nt)]
    rc = [[None] * nt for _ in range(nt)]
    if "pairs" in pot:
        for entry in pot["pairs"]:
            a, b = (types.index(t) for t in entry["types"])
            for i, j in ((a, b), (b, a)):
                eps[i][j] = float(entry["epsilon"])
                sig[i][j] = float(entry["sigma"])
                rc[i][j] = float(entry.get("r_cut", pot.get("r_cut", 2.5)))
    else:
        eps[0][0] = float(pot.get("epsilon", 1.0))
        sig[0][0] = float(pot.get("sigma", 1.0))
        rc[0][0] = float(pot.get("r_cut", 2.5))
    return types, eps, sig, rc, bool(pot.get("shift", False)), bool(pot.get("tail", False))


def fail_exit(message):
    print("FAIL: " + message)
    return 1


def error_exit(message):
    print("error: " + message, file=sys.stderr)
    return 2
