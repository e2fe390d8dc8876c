#!/usr/bin/env python3
"""Drift of the invariants of a vortex run, from the observables of its H5MD file.

    vortex_invariants.py RUN.h5 [--max-linear 1e-12] [--max-drift 1e-6] [--plot PATH|none]
    vortex_invariants.py --python [--config configs/ci/vortex_tiny.yaml] [--steps 400]
                         [--out DIR]        # runs physics.py in CPython, writes RUN.h5, checks it

For each observable Q of /observables (circulation, impulse_x, impulse_y, angular_impulse,
hamiltonian) it reports the drift max_t |Q(t) - Q(0)| / scale:
  circulation       scale sum |G|              exact: bound --max-linear
  impulse_x, _y     scale sum |G| r_rms         exact for every RK method: --max-linear
  angular_impulse   scale sum |G| r_rms^2       the integrator's error: --max-drift (unbounded only)
  hamiltonian       scale |H(0)|                the integrator's error: --max-drift
(r_rms: root-mean-square distance of the first frame's vortices from their centre.) The bounds
default to single-precision values (1e-4, 1e-3) when the run's config says precision: single.
Plots Q(t) - Q(0) relative to its scale (PNG). Exits 1 when a drift is above its bound, 2 when
the file cannot be read.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

import vortex_common as V

LINEAR = ("circulation", "impulse_x", "impulse_y")


def drifts(d):
    """{name: (time, relative deviation Q(t) - Q(0) over its scale)} of the file's observables."""
    g = d["circulation"]
    pos = d["position"][0]
    centre = pos.mean(axis=0)
    r_rms = float(np.sqrt(np.mean(np.sum((pos - centre) ** 2, axis=1)))) or 1.0
    sg = float(np.sum(np.abs(g)))
    scales = {"circulation": sg, "impulse_x": sg * r_rms, "impulse_y": sg * r_rms,
              "angular_impulse": sg * r_rms ** 2}
    out = {}
    for name, (_, t, q) in d["observables"].items():
        scale = scales.get(name, abs(q[0]) if q[0] != 0 else 1.0)
        out[name] = (t, (q - q[0]) / scale)
    return out


def plot(path, dev, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, (t, rel) in dev.items():
        ax.plot(t, np.maximum(np.abs(rel), 1e-18), label=name, lw=1)
    ax.set_yscale("log")
    ax.set_ylim(bottom=1e-18)
    ax.set_xlabel("time")
    ax.set_ylabel("|Q(t) - Q(0)| / scale")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def run_python(a):
    """Runs --config in CPython for --steps steps and writes <out>/<prefix>.h5 like vortex."""
    cfg = V.load_config(a.config)
    if a.steps is not None:
        cfg["integrator"]["steps"] = a.steps
    print("running %s in CPython: %d vortices, %d %s steps"
          % (a.config, len(V.initial_state(cfg)[0]), cfg["integrator"]["steps"],
             cfg["integrator"]["kind"]), flush=True)
    d = V.run_python(cfg)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / (cfg["output"]["prefix"] + ".h5")
    V.write_h5md(path, d, Path(a.config).read_text())
    return str(path)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", nargs="?", help="H5MD file written by vortex")
    p.add_argument("--python", action="store_true",
                   help="run --config in CPython first and check its file")
    p.add_argument("--config", default=str(V.ROOT / "configs/ci/vortex_tiny.yaml"))
    p.add_argument("--steps", type=int, default=400, help="--python: steps (default 400)")
    p.add_argument("--out", default="out/vortex_invariants", help="--python: output folder")
    p.add_argument("--max-linear", type=float, default=None,
                   help="bound for circulation and impulses (default 1e-12; single 1e-4)")
    p.add_argument("--max-drift", type=float, default=None,
                   help="bound for angular impulse and H (default 1e-6; single 1e-3)")
    p.add_argument("--plot", default=None,
                   help="PNG (default <file>_invariants.png; 'none': none)")
    a = p.parse_args(argv)
    if a.python:
        a.file = run_python(a)
    if not a.file:
        p.error("give an H5MD file or --python")
    try:
        d = V.read_h5md(a.file)
        missing = [k for k in V.OBSERVABLES if k not in d["observables"]]
        if missing:
            raise KeyError("no observables " + ", ".join(missing))
    except (OSError, KeyError) as e:
        print("error: %s: not a vortex H5MD file with observables (%s)" % (a.file, e))
        return 2
    import yaml
    cfg = yaml.safe_load(d["config_yaml"]) if d["config_yaml"] else {}
    single = (cfg or {}).get("precision") == "single"
    max_lin = a.max_linear if a.max_linear is not None else (1e-4 if single else 1e-12)
    max_drift = a.max_drift if a.max_drift is not None else (1e-3 if single else 1e-6)
    dev = drifts(d)
    t = d["observables"]["hamiltonian"][1]
    print("file:     %s" % a.file)
    print("vortices: %d, samples %d, t = %g..%g%s" % (
        len(d["circulation"]), len(t), t[0], t[-1], ", periodic in x" if d["periodic"] else ""))
    ok = True
    for name in V.OBSERVABLES:
        rel = float(np.max(np.abs(dev[name][1])))
        q0 = d["observables"][name][2][0]
        if name == "angular_impulse" and d["periodic"]:
            print("%-16s Q0 % .12e  drift %.3e  (not conserved when periodic)" % (name, q0, rel))
            continue
        bound = max_lin if name in LINEAR else max_drift
        good = rel <= bound
        ok &= good
        print("%-16s Q0 % .12e  drift %.3e  (bound %.0e)  %s"
              % (name, q0, rel, bound, "ok" if good else "FAIL"))
    if a.plot != "none":
        out = a.plot or str(Path(a.file).with_suffix("")) + "_invariants.png"
        plot(out, dev, Path(a.file).name)
        print("plot:     %s" % out)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
