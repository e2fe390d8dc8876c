#!/usr/bin/env python3
"""Energy conservation of an md2d run (NVE, velocity Verlet), from its H5MD file.

    md2d_energy.py RUN.h5 [--max-drift 1e-3] [--max-fluctuation 2e-3] [--skip 0.0] [--plot out.png]

Reads /observables/{potential,kinetic,total}_energy and reports
  drift       = |slope of a linear fit of E_total(t)| * (t_end - t_start) / |E_0|
  fluctuation = std(E_total) / |mean(E_total)|
plots the three energies against time (PNG) and exits 1 when either is above its bound
(2 for an unreadable file). See validation/README.md for the bounds and why.
"""

import argparse
import sys
from pathlib import Path

import h5py
import numpy as np


def load_energies(path):
    with h5py.File(path, "r") as f:
        obs = f["observables"]
        out = {}
        for name in ("potential_energy", "kinetic_energy", "total_energy"):
            out[name] = np.asarray(obs[name]["value"][()], dtype=float)
        out["time"] = np.asarray(obs["total_energy"]["time"][()], dtype=float)
        out["step"] = np.asarray(obs["total_energy"]["step"][()])
        n = f["particles/all/position/value"].shape[1] if "particles/all/position" in f else None
    return out, n


def drift_and_fluctuation(t, e):
    """Relative drift over the run (from a linear fit) and relative fluctuation."""
    e0 = abs(e[0]) if e[0] != 0 else 1.0
    if len(t) < 2 or t[-1] == t[0]:
        return 0.0, 0.0
    slope = np.polyfit(t, e, 1)[0]
    drift = abs(slope) * (t[-1] - t[0]) / e0
    mean = abs(np.mean(e)) if np.mean(e) != 0 else 1.0
    return drift, float(np.std(e) / mean)


def plot(path, d, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    top.plot(d["time"], d["total_energy"], color="k", lw=1)
    top.set_ylabel("total energy")
    top.set_title(title)
    bottom.plot(d["time"], d["potential_energy"], label="potential", lw=1)
    bottom.plot(d["time"], d["kinetic_energy"], label="kinetic", lw=1)
    bottom.set_xlabel("time [tau]")
    bottom.set_ylabel("energy [epsilon]")
    bottom.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", help="H5MD file written by md2d")
    p.add_argument("--max-drift", type=float, default=1e-3,
                   help="bound on |slope| * duration / |E0| (default 1e-3)")
    p.add_argument("--max-fluctuation", type=float, default=2e-3,
                   help="bound on std(E) / |mean(E)| (default 2e-3)")
    p.add_argument("--skip", type=float, default=0.0,
                   help="fraction of the samples at the start to leave out (default 0)")
    p.add_argument("--plot", default=None,
                   help="PNG to write (default: <file>_energy.png beside the file; 'none' for none)")
    a = p.parse_args(argv)
    try:
        d, n = load_energies(a.file)
    except (OSError, KeyError) as e:
        print("error: %s: not an md2d H5MD file with energies (%s)" % (a.file, e))
        return 2
    first = int(len(d["time"]) * a.skip)
    for k in ("time", "step", "potential_energy", "kinetic_energy", "total_energy"):
        d[k] = d[k][first:]
    if len(d["time"]) < 2:
        print("error: %s: need at least 2 energy samples, found %d" % (a.file, len(d["time"])))
        return 2
    drift, fluct = drift_and_fluctuation(d["time"], d["total_energy"])
    e = d["total_energy"]
    print("file:        %s" % a.file)
    print("particles:   %s" % (n if n is not None else "?"))
    print("samples:     %d (steps %d..%d, t = %g..%g)"
          % (len(e), d["step"][0], d["step"][-1], d["time"][0], d["time"][-1]))
    print("E_total:     first %.10g, last %.10g, mean %.10g" % (e[0], e[-1], np.mean(e)))
    ok_drift, ok_fluct = drift <= a.max_drift, fluct <= a.max_fluctuation
    print("drift:       %.3e  (bound %.1e)  %s" % (drift, a.max_drift, "ok" if ok_drift else "FAIL"))
    print("fluctuation: %.3e  (bound %.1e)  %s"
          % (fluct, a.max_fluctuation, "ok" if ok_fluct else "FAIL"))
    if a.plot != "none":
        out = a.plot or str(Path(a.file).with_suffix("")) + "_energy.png"
        plot(out, d, "%s: drift %.2e, fluctuation %.2e" % (Path(a.file).name, drift, fluct))
        print("plot:        %s" % out)
    return 0 if ok_drift and ok_fluct else 1


if __name__ == "__main__":
    sys.exit(main())
