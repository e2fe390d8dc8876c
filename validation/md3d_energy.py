#!/usr/bin/env python3
"""Energy conservation of an md3d run, from its H5MD observables.

    md3d_energy.py RUN.h5 [--quantity auto] [--max-drift 1e-3] [--max-fluctuation 2e-3]
                          [--skip 0.0] [--plot out.png]

Reads /observables/{potential,kinetic,total,conserved}_energy and reports, for the checked
quantity E (total_energy for NVE; conserved_energy = E - thermostat heat for Langevin/Bussi):
  drift       = |slope of a linear fit of E(t)| * (t_end - t_start) / scale
  fluctuation = std(E) / scale
  rate        = slope / N, in epsilon per particle per tau (signed; comparable across N and runs)
with scale = |mean(PE)| + mean(KE), the system's energy scale (E itself can be near zero, so it
is not used as the denominator). Plots the energies against time (PNG); prints a PASS or FAIL
line and exits 1 when a value is above its bound, 2 for an unreadable file.
See validation/README.md for the bounds and why.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md3d_common import read_observables  # noqa: E402

NAMES = ("potential_energy", "kinetic_energy", "total_energy", "conserved_energy")


def particle_count(path):
    """N from the trajectory's frames; None for a file without them."""
    import h5py
    with h5py.File(path, "r") as f:
        value = f.get("particles/all/position/value")
        return int(value.shape[1]) if value is not None else None


def drift_and_fluctuation(t, e, scale):
    if len(t) < 2 or t[-1] == t[0]:
        return 0.0, 0.0
    slope = np.polyfit(t, e, 1)[0]
    return abs(slope) * (t[-1] - t[0]) / scale, float(np.std(e) / scale)


def plot(path, t, series, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    for name in ("total_energy", "conserved_energy"):
        if name in series:
            top.plot(t, series[name], lw=1, label=name.replace("_", " "))
    top.set_ylabel("energy [epsilon]")
    top.set_title(title)
    top.legend()
    bottom.plot(t, series["potential_energy"], label="potential", lw=1)
    bottom.plot(t, series["kinetic_energy"], label="kinetic", lw=1)
    bottom.set_xlabel("time [tau]")
    bottom.set_ylabel("energy [epsilon]")
    bottom.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", help="H5MD file written by md3d")
    p.add_argument("--quantity", default="auto",
                   choices=["auto", "total_energy", "conserved_energy"],
                   help="energy to check (auto: conserved_energy when present, else total_energy)")
    p.add_argument("--max-drift", type=float, default=1e-3,
                   help="bound on |slope| * duration / scale (default 1e-3)")
    p.add_argument("--max-fluctuation", type=float, default=2e-3,
                   help="bound on std(E) / scale (default 2e-3)")
    p.add_argument("--skip", type=float, default=0.0,
                   help="fraction of the samples at the start to leave out (default 0)")
    p.add_argument("--plot", default=None,
                   help="PNG to write (default: <file>_energy.png beside the file; 'none')")
    a = p.parse_args(argv)
    try:
        import h5py
        with h5py.File(a.file, "r") as f:
            present = [n for n in NAMES if "observables/" + n in f]
        obs = read_observables(a.file, present)
        for n in ("potential_energy", "kinetic_energy", "total_energy"):
            if n not in obs:
                raise KeyError(n)
    except (OSError, KeyError) as e:
        print("error: %s: not an md3d H5MD file with energies (%s)" % (a.file, e))
        return 2
    quantity = a.quantity
    if quantity == "auto":
        quantity = "conserved_energy" if "conserved_energy" in obs else "total_energy"
    if quantity not in obs:
        print("error: %s: no /observables/%s" % (a.file, quantity))
        return 2
    step, t, _ = obs["total_energy"]
    first = int(len(t) * a.skip)
    series = {n: v[2][first:] for n, v in obs.items()}
    t, step = t[first:], step[first:]
    if len(t) < 2:
        print("error: %s: need at least 2 energy samples, found %d" % (a.file, len(t)))
        return 2
    scale = abs(np.mean(series["potential_energy"])) + np.mean(series["kinetic_energy"])
    if not scale > 0:
        print("error: %s: zero energy scale" % a.file)
        return 2
    e = series[quantity]
    drift, fluct = drift_and_fluctuation(t, e, scale)
    n = particle_count(a.file)
    print("file:        %s" % a.file)
    print("quantity:    %s" % quantity)
    print("samples:     %d (steps %d..%d, t = %g..%g)" % (len(e), step[0], step[-1], t[0], t[-1]))
    print("energy:      first %.10g, last %.10g, mean %.10g, scale |PE|+KE %.6g"
          % (e[0], e[-1], np.mean(e), scale))
    ok_drift, ok_fluct = drift <= a.max_drift, fluct <= a.max_fluctuation
    print("drift:       %.3e  (bound %.1e)  %s" % (drift, a.max_drift, "ok" if ok_drift else "FAIL"))
    print("fluctuation: %.3e  (bound %.1e)  %s"
          % (fluct, a.max_fluctuation, "ok" if ok_fluct else "FAIL"))
    if n:
        print("rate:        %+.3e epsilon per particle per tau (slope of E / N, N = %d)"
              % (np.polyfit(t, e, 1)[0] / n, n))
    if a.plot != "none":
        out = a.plot or str(Path(a.file).with_suffix("")) + "_energy.png"
        plot(out, t, series, "%s: drift %.2e, fluctuation %.2e" % (Path(a.file).name, drift,
                                                                    fluct))
        print("plot:        %s" % out)
    ok = ok_drift and ok_fluct
    print("%s: md3d_energy %s drift %.2e <= %.1e, fluctuation %.2e <= %.1e"
          % ("PASS" if ok else "FAIL", quantity, drift, a.max_drift, fluct, a.max_fluctuation))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
