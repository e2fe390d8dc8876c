#!/usr/bin/env python3
"""Order of accuracy of vortex's integrators: a ring and a pair against their exact rotation.

    vortex_order.py [--backend cpu] [--precision double] [--binary PATH] [--plot out.png]
    vortex_order.py --python [--plot out.png]

A Thomson ring of 5 point vortices (Omega = (N-1) G / (4 pi R^2)) and a co-rotating pair with
circulations 1 and 0.5 (Omega = (G1 + G2)/(2 pi d^2), about the centre of vorticity) are run to
t = 2 with four time steps per integrator (euler, rk2, heun, rk4). The error is the largest
distance of a vortex from its exact position; the slope of log(error) against log(dt) (least
squares) must be within --slope-tol of 1, 2, 2, 4. Writes a log-log plot (PNG). Exits 1 when a
slope is off, 2 when a run fails.
"""

import argparse
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

import vortex_common as V

T_END = 2.0
STEPS = {"euler": (100, 200, 400, 800), "rk2": (20, 40, 80, 160), "heun": (20, 40, 80, 160),
         "rk4": (8, 16, 32, 64)}
CASES = {
    "ring": {"kind": "ring", "n": 5, "radius": 1.0, "circulation": 1.0, "phase": 0.3},
    "pair": {"kind": "pair", "separation": 1.0, "circulations": [1.0, 0.5],
             "center": [0.2, -0.1]},
}


def omega(case):
    ini = CASES[case]
    if case == "ring":
        return (ini["n"] - 1) * ini["circulation"] / (4 * math.pi * ini["radius"] ** 2)
    return sum(ini["circulations"]) / (2 * math.pi * ini["separation"] ** 2)


def config(case, integrator, steps, backend, precision):
    return {"backend": backend, "precision": precision,
            "physics": {"regularisation": "point"},
            "integrator": {"kind": integrator, "dt": T_END / steps, "steps": steps},
            "initial": dict(CASES[case]),
            "output": {"directory": "out", "prefix": "order", "frame_interval": steps,
                       "thermo_interval": steps, "csv": False, "progress": False}}


def exact_final(x, y, g, case):
    cx, cy = np.sum(g * x) / g.sum(), np.sum(g * y) / g.sum()
    c, s = math.cos(omega(case) * T_END), math.sin(omega(case) * T_END)
    return cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)


def final_python(cfg):
    x, y, g = V.initial_state(V.resolve(cfg))
    it = cfg["integrator"]
    sim = V.PySim(x, y, g, (V.REGULARISATIONS["point"], 0.0, 0, 1.0), it["kind"], it["dt"])
    for _ in range(it["steps"]):
        sim.step()
    return x, y, g, sim.x, sim.y


def final_binary(cfg, binary):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "order.yaml"
        path.write_text(V.dump_yaml(cfg))
        V.run_binary(binary, path, ["--output", tmp])
        d = V.read_h5md(Path(tmp) / "order.h5")
    pos = d["position"]
    if d["frame_step"][-1] != cfg["integrator"]["steps"]:
        raise RuntimeError("the last frame is step %d, expected %d"
                           % (d["frame_step"][-1], cfg["integrator"]["steps"]))
    return pos[0, :, 0], pos[0, :, 1], d["circulation"], pos[-1, :, 0], pos[-1, :, 1]


def plot(path, results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 4.2))
    for ax, (case, per) in zip(np.atleast_1d(axes), results.items()):
        for integ, (dts, errs, slope) in per.items():
            ax.loglog(dts, errs, "o-", label="%s: slope %.2f" % (integ, slope))
            p = V.ORDER[integ]
            ax.loglog(dts, errs[0] * (np.array(dts) / dts[0]) ** p, "k:", lw=0.8)
        ax.set_xlabel("dt")
        ax.set_ylabel("max position error at t = %g" % T_END)
        ax.set_title("%s (dotted: dt^1, dt^2, dt^4)" % case)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", action="store_true", help="run physics.py in CPython")
    p.add_argument("--binary", help="vortex binary (default build/apps/vortex/vortex)")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--precision", default="double", choices=("double", "single"))
    p.add_argument("--slope-tol", type=float, default=0.2)
    p.add_argument("--plot", default="vortex_order.png", help="PNG to write ('none': none)")
    a = p.parse_args(argv)
    binary = None
    if not a.python:
        binary = V.find_binary(a.binary)
        if binary is None:
            print("error: no vortex binary (build it, pass --binary, or use --python)")
            return 2
    print("source: %s" % ("physics.py in CPython" if a.python else "%s (backend %s, %s)"
                          % (binary, a.backend, a.precision)))
    results, ok = {}, True
    for case in CASES:
        results[case] = {}
        for integ, steps_list in STEPS.items():
            errs = []
            for steps in steps_list:
                cfg = config(case, integ, steps, a.backend, a.precision)
                try:
                    x0, y0, g, x1, y1 = (final_python(cfg) if a.python
                                         else final_binary(cfg, binary))
                except (OSError, KeyError, RuntimeError) as e:
                    print("error: %s" % e)
                    return 2
                xe, ye = exact_final(x0, y0, g, case)
                errs.append(float(np.max(np.hypot(x1 - xe, y1 - ye))))
            dts = [T_END / s for s in steps_list]
            slope = float(np.polyfit(np.log(dts), np.log(errs), 1)[0])
            good = abs(slope - V.ORDER[integ]) <= a.slope_tol
            ok &= good
            results[case][integ] = (dts, errs, slope)
            print("%-4s %-5s errors %s  slope %.3f (expected %d)  %s" % (
                case, integ, " ".join("%.2e" % e for e in errs), slope, V.ORDER[integ],
                "ok" if good else "FAIL"))
    if a.plot != "none":
        plot(a.plot, results)
        print("plot: %s" % a.plot)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
