#!/usr/bin/env python3
"""Exact identities of the vortex velocities on a large configuration (10^4 vortices by default).

    vortex_identities.py [--backend cpu] [--precision double] [--n 10000] [--regularisation krasny]
                         [--delta 0.02] [--periodic L] [--binary PATH]      # runs vortex, 0 steps
    vortex_identities.py --file RUN.h5 [--frame 0]                           # a frame of a run
    vortex_identities.py --python [--n 1000] ...                             # physics.py in CPython

For the frame's positions, circulations and velocities it checks, relative to the size of the
terms that cancel (apps/vortex/README.md, "Identities"):
  sum G u = 0, sum G v = 0                                  (also periodic)
  sum G (x u + y v) = 0                                      (unbounded)
  sum G (x v - y u) = (1/4pi) sum_{j != k} G_j G_k r^2 K     (unbounded)
and the velocities themselves against an independent NumPy evaluation. The default state is a
random disc patch with circulation_spread 1.5 (both signs). Exits 1 when a check fails, 2 when
the run or file cannot be used.
"""

import argparse
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

import vortex_common as V


def state_config(a):
    """The vortex config (as the binary reads it) of the checked state."""
    physics = {"regularisation": a.regularisation}
    if a.regularisation != "point":
        physics["delta"] = a.delta
    if a.periodic:
        physics.update(periodic_x=True, period=a.periodic)
    return {
        "backend": a.backend, "precision": a.precision,
        "physics": physics,
        "integrator": {"kind": "rk4", "dt": 0.01, "steps": 0},
        "initial": {"kind": "patch", "n": a.n, "radius": 1.0, "circulation_spread": 1.5,
                    "seed": a.seed},
        "output": {"directory": "out", "prefix": "vortex_identities", "frame_interval": 1,
                   "thermo_interval": 1, "csv": False, "progress": False},
    }


def frame_from_binary(a, binary):
    cfg = state_config(a)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "identities.yaml"
        path.write_text(V.dump_yaml(cfg))
        V.run_binary(binary, path, ["--output", tmp])
        d = V.read_h5md(Path(tmp) / "vortex_identities.h5")
    pos, vel = d["position"][0], d["velocity"][0]
    return (pos[:, 0], pos[:, 1], d["circulation"], vel[:, 0], vel[:, 1], V.physics_args(
        V.resolve(cfg)), a.precision)


def frame_from_file(a):
    import yaml
    d = V.read_h5md(a.file)
    cfg = V.resolve(yaml.safe_load(d["config_yaml"])) if d["config_yaml"] else None
    if cfg is None or "velocity" not in d:
        raise KeyError("needs particles/all/velocity and parameters@config_yaml")
    pos, vel = d["position"][a.frame], d["velocity"][a.frame]
    return (pos[:, 0], pos[:, 1], d["circulation"], vel[:, 0], vel[:, 1], V.physics_args(cfg),
            cfg.get("precision", "double"))


def frame_from_python(a):
    cfg = V.resolve(state_config(a))
    x, y, g = V.initial_state(cfg)
    sim = V.PySim(x, y, g, V.physics_args(cfg))
    sim.velocity(sim.x, sim.y)
    return x, y, g, sim.u.copy(), sim.v.copy(), V.physics_args(cfg), "double"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = p.add_mutually_exclusive_group()
    src.add_argument("--python", action="store_true", help="evaluate physics.py in CPython")
    src.add_argument("--file", help="H5MD file written by vortex (needs velocities)")
    p.add_argument("--frame", type=int, default=0, help="frame of --file (default 0)")
    p.add_argument("--binary", help="vortex binary (default build/apps/vortex/vortex)")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--precision", default="double", choices=("double", "single"))
    p.add_argument("--n", type=int, default=None,
                   help="vortices (default 10000; 1000 with --python)")
    p.add_argument("--regularisation", default="krasny", choices=tuple(V.REGULARISATIONS))
    p.add_argument("--delta", type=float, default=0.02)
    p.add_argument("--periodic", type=float, default=0.0, metavar="L",
                   help="periodic in x with period L (default: unbounded)")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--tol", type=float, default=None,
                   help="bound on each relative residual (default 1e-13 double, 1e-5 single)")
    a = p.parse_args(argv)
    if a.n is None:
        a.n = 1000 if a.python else 10000
    try:
        if a.file:
            x, y, g, u, v, phys, precision = frame_from_file(a)
            source = "%s frame %d" % (a.file, a.frame)
        elif a.python:
            x, y, g, u, v, phys, precision = frame_from_python(a)
            source = "physics.py in CPython"
        else:
            binary = V.find_binary(a.binary)
            if binary is None:
                print("error: no vortex binary (build it, pass --binary, or use --python)")
                return 2
            x, y, g, u, v, phys, precision = frame_from_binary(a, binary)
            source = "%s (backend %s, %s)" % (binary, a.backend, a.precision)
    except (OSError, KeyError, RuntimeError) as e:
        print("error: %s" % e)
        return 2
    tol = a.tol if a.tol is not None else (1e-13 if precision == "double" else 1e-5)
    n = len(x)
    reg, delta, periodic, length = phys
    print("source:      %s" % source)
    print("vortices:    %d, regularisation %d, delta %g, %s" % (
        n, reg, delta, "periodic L = %g" % length if periodic else "unbounded"))

    un, vn, s = V.numpy_velocity(x, y, g, phys, with_scale=True)
    ag = np.abs(g)
    scale_lin = math.fsum(ag * s)
    scale_mom = math.fsum(ag * (np.abs(x) + np.abs(y)) * s)
    rows = []
    vel_err = float(np.max((np.abs(u - un) + np.abs(v - vn)) / s))
    rows.append(("velocity vs NumPy (max_k)", vel_err, 10 * tol if precision == "double" else tol))
    rows.append(("sum G u", abs(math.fsum(g * u)) / scale_lin, tol))
    rows.append(("sum G v", abs(math.fsum(g * v)) / scale_lin, tol))
    if not periodic:
        rows.append(("sum G (x u + y v)", abs(math.fsum(g * (x * u + y * v))) / scale_mom, tol))
        rot = math.fsum(g * (x * v - y * u))
        exact = V.numpy_rotation_exact(x, y, g, phys)
        print("rotation:    sum G (x v - y u) = %.15g, exact %.15g" % (rot, exact))
        rows.append(("sum G (x v - y u) - exact", abs(rot - exact) / scale_mom, tol))
    ok = True
    for name, val, bound in rows:
        good = val <= bound
        ok &= good
        print("%-27s %.3e  (bound %.0e)  %s" % (name + ":", val, bound, "ok" if good else "FAIL"))
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
