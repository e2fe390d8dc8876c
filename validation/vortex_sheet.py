#!/usr/bin/env python3
"""Krasny's vortex sheet roll-up: a picture of the sheet and its symmetry, from a vortex H5MD file.

    vortex_sheet.py RUN.h5 [--plot PATH] [--sym-tol 1e-6] [--sym-until auto] [--max-drift 1e-4]
    vortex_sheet.py --python [--n 64] [--delta 0.2] [--dt 0.025] [--steps 80] [--out DIR]

The run is configs/vortex_sheet.yaml or any `initial.kind: sheet` run (periodic in x, period L).
The sheet starts symmetric under (x, y) -> (L - x, -y) with point j -> n - j, and the dynamics
keeps that symmetry:
  max_j |x_j + x_{n-j} (mod L)| and max_j |y_j + y_{n-j}|  <= --sym-tol * L
in every frame up to --sym-until (time since the first frame). In floating point the mirror
pairs differ by round-off (eps of the positions' type), and the sheet is Kelvin-Helmholtz
unstable: an asymmetric perturbation grows like exp(sigma t), sigma up to the fastest linear
growth rate sigma_max of the flat discretised sheet under the run's kernel (Krasny 1986 shows
the same amplification of round-off in the point-vortex sheet). After
t_sym = ln(sym_tol / eps) / sigma_max that amplified round-off may exceed the bound, so the
symmetry then says nothing about the kernels: --sym-until auto (the default) checks the frames
up to t_sym and reports the later asymmetry without bounding it. And the observables: circulation and impulse_y (0 by symmetry) exact (1e-12 of their scale),
H within --max-drift (relative). Reports the roll-up (max |y|, arc length of the sheet per
period) and draws up to six frames, x wrapped into [0, L), points joined in order (PNG).
--python runs physics.py in CPython on a coarse sheet (Krasny's delta 0.2, 64 points) first.
Exits 1 when a check fails, 2 when the file cannot be used.
"""

import argparse
import math
import re
import sys
from pathlib import Path

import numpy as np

import vortex_common as V


def symmetry_error(pos, length):
    n = pos.shape[0]
    mirror = (-np.arange(n)) % n
    sx = (pos[:, 0] + pos[mirror, 0]) / length
    sx = np.abs(sx - np.round(sx))
    sy = np.abs(pos[:, 1] + pos[mirror, 1]) / length
    return float(max(sx.max(), sy.max()))


def run_physics(config_yaml):
    """(regularisation, delta, periodic, period) of a run from its parameters@config_yaml, with
    the `--set physics.KEY=VALUE` overrides of its last comment line."""
    import yaml
    physics = dict((yaml.safe_load(config_yaml) or {}).get("physics") or {})
    for line in config_yaml.splitlines():
        if line.startswith("# command-line overrides:"):
            for m in re.finditer(r"--set physics\.(\w+)=(\S+)", line):
                physics[m.group(1)] = yaml.safe_load(m.group(2))
    return V.physics_args({"physics": physics})


def symmetry_window(d, a):
    """(t_sym, sigma_max): the time since the first frame up to which the symmetry is checked,
    and the sheet's fastest linear growth rate (None unless --sym-until auto)."""
    if a.sym_until == "all":
        return math.inf, None
    if a.sym_until != "auto":
        return float(a.sym_until), None
    g = d["circulation"]
    sigma = float(V.sheet_growth_rates(len(g), float(np.mean(g)),
                                       run_physics(d["config_yaml"])).max())
    eps = float(np.finfo(d["position_dtype"]).eps)
    if sigma <= 0:
        return math.inf, sigma
    return max(0.0, math.log(a.sym_tol / eps) / sigma), sigma


def arc_length(pos, length):
    """Length of the polyline through the points in order, closed over one period."""
    d = np.diff(np.vstack([pos, pos[:1] + [length, 0.0]]), axis=0)
    return float(np.sum(np.hypot(d[:, 0], d[:, 1])))


def plot(path, d, length, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frames = np.unique(np.linspace(0, len(d["frame_step"]) - 1, 6).round().astype(int))
    ymax = max(float(np.max(np.abs(d["position"][:, :, 1]))), 1e-3 * length) * 1.1
    panel = 6.0 * 2.0 * ymax / length + 0.7
    fig, axes = plt.subplots(len(frames), 1, figsize=(7, panel * len(frames) + 0.5),
                             sharex=True)
    for ax, f in zip(np.atleast_1d(axes), frames):
        pos = d["position"][f]
        xw = np.mod(pos[:, 0], length)
        # break the line where consecutive points sit on opposite sides of the seam
        jump = np.abs(np.diff(xw)) > 0.5 * length
        xs, ys = xw.astype(float).copy(), pos[:, 1].astype(float).copy()
        xs = np.insert(xs, np.nonzero(jump)[0] + 1, np.nan)
        ys = np.insert(ys, np.nonzero(jump)[0] + 1, np.nan)
        ax.plot(xs, ys, "-", lw=0.8, color="k")
        ax.plot(xw, pos[:, 1], ".", ms=2, color="C3")
        ax.set_xlim(0, length)
        ax.set_ylim(-ymax, ymax)
        ax.set_aspect("equal")
        ax.set_ylabel("y")
        ax.set_title("t = %g" % d["frame_time"][f], fontsize=9)
    np.atleast_1d(axes)[-1].set_xlabel("x (mod L)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def run_python(a):
    cfg = V.resolve({
        "physics": {"regularisation": "krasny", "delta": a.delta, "periodic_x": True,
                    "period": 1.0},
        "integrator": {"kind": "rk4", "dt": a.dt, "steps": a.steps},
        "initial": {"kind": "sheet", "n": a.n, "amplitude": 0.01},
        "output": {"prefix": "vortex_sheet", "frame_interval": max(1, a.steps // 5),
                   "thermo_interval": max(1, a.steps // 20)}})
    print("running a %d-point sheet in CPython: delta %g, %d RK4 steps of %g"
          % (a.n, a.delta, a.steps, a.dt), flush=True)
    d = V.run_python(cfg)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "vortex_sheet.h5"
    V.write_h5md(path, d, V.dump_yaml(cfg))
    return str(path)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", nargs="?", help="H5MD file of a sheet run")
    p.add_argument("--python", action="store_true", help="run a coarse sheet in CPython first")
    p.add_argument("--n", type=int, default=64)
    p.add_argument("--delta", type=float, default=0.2)
    p.add_argument("--dt", type=float, default=0.025)
    p.add_argument("--steps", type=int, default=80)
    p.add_argument("--out", default="out/vortex_sheet_python")
    p.add_argument("--sym-tol", type=float, default=1e-6)
    p.add_argument("--sym-until", default="auto",
                   help="check the symmetry up to this time since the first frame ('auto': "
                        "t_sym from the sheet's fastest linear growth rate; 'all')")
    p.add_argument("--max-drift", type=float, default=1e-4)
    p.add_argument("--plot", default=None, help="PNG (default <file>_sheet.png; 'none': none)")
    a = p.parse_args(argv)
    if a.python:
        a.file = run_python(a)
    if not a.file:
        p.error("give an H5MD file or --python")
    try:
        d = V.read_h5md(a.file)
        if not d["periodic"]:
            raise KeyError("the run is not periodic in x")
        obs = d["observables"]
        for k in ("circulation", "impulse_y", "hamiltonian"):
            if k not in obs:
                raise KeyError("no observable " + k)
    except (OSError, KeyError) as e:
        print("error: %s: not a vortex sheet run (%s)" % (a.file, e))
        return 2
    length = d["period"]
    pos = d["position"]
    g = d["circulation"]
    t_sym, sigma = symmetry_window(d, a)
    since = d["frame_time"] - d["frame_time"][0]
    errors = [symmetry_error(pos[f], length) for f in range(len(pos))]
    checked = [e for e, t in zip(errors, since) if t <= t_sym * (1 + 1e-12)]
    sym = max(checked)
    later = [(e, t) for e, t in zip(errors, since) if t > t_sym * (1 + 1e-12)]
    sg = float(np.sum(np.abs(g)))
    circ = float(np.max(np.abs(obs["circulation"][2] - obs["circulation"][2][0]))) / sg
    imp_y = float(np.max(np.abs(obs["impulse_y"][2]))) / (sg * length)
    h = obs["hamiltonian"][2]
    h_drift = float(np.max(np.abs(h - h[0])) / abs(h[0]))
    print("file:         %s" % a.file)
    print("points:       %d per period L = %g, frames %d, t = %g..%g"
          % (len(g), length, len(pos), d["frame_time"][0], d["frame_time"][-1]))
    print("roll-up:      max|y| %.4g -> %.4g, arc length %.4g -> %.4g" % (
        np.max(np.abs(pos[0, :, 1])), np.max(np.abs(pos[-1, :, 1])), arc_length(pos[0], length),
        arc_length(pos[-1], length)))
    rows = [("symmetry", sym, a.sym_tol), ("circulation", circ, 1e-12),
            ("impulse_y", imp_y, 1e-12), ("hamiltonian", h_drift, a.max_drift)]
    ok = True
    for name, val, bound in rows:
        good = val <= bound and math.isfinite(val)
        ok &= good
        print("%-13s %.3e  (bound %.0e)  %s" % (name + ":", val, bound, "ok" if good else "FAIL"))
        if name == "symmetry":
            window = "every frame" if not later else "frames up to t = %.4g after the first" % t_sym
            if sigma is not None:
                window += " (fastest linear growth rate %.4g, eps %.2g)" % (
                    sigma, np.finfo(d["position_dtype"]).eps)
            print("              checked: %s" % window)
            if later:
                worst = max(later)
                print("              later (not bounded: Kelvin-Helmholtz growth of round-off): "
                      "max %.3e at t = %.4g" % worst)
    if a.plot != "none":
        out = a.plot or str(Path(a.file).with_suffix("")) + "_sheet.png"
        plot(out, d, length, "%s: %d points" % (Path(a.file).name, len(g)))
        print("plot:         %s" % out)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
