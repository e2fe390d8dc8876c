#!/usr/bin/env python3
"""Do two md2d runs from the same initial state agree (cpu vs opencl vs cuda, double vs single)?

    md2d_compare_backends.py A.h5 B.h5 [--horizon 100] [--pos-tol 1e-6] [--energy-tol 1e-8]

MD is chaotic: round-off differences grow exponentially, so runs agree only over a short horizon.
Compares, at every step both files hold up to --horizon steps:
  positions  max |x_A - x_B| (minimum image in a periodic box)  <= --pos-tol
  energies   |E_A - E_B| / |E_A| for potential, kinetic, total  <= --energy-tol
The initial frames must match to --pos-tol as well (else the runs did not start from one state).
Exits 1 when a tolerance is exceeded, 2 when the files cannot be compared (different N, box...).
"""

import argparse
import sys

import h5py
import numpy as np

ENERGIES = ("potential_energy", "kinetic_energy", "total_energy")



def h5md_box_edges(box, frame=-1):
    """The box edges of /particles/<group>/box at a frame: edges/value [frames, D, D] (Smelt's
    time-dependent box, a diagonal matrix) or [frames, D], or one edges dataset [D]."""
    import h5py
    e = box["edges"]
    e = np.asarray(e["value"][frame] if isinstance(e, h5py.Group) else e[()], dtype=float)
    return np.diag(e) if e.ndim == 2 else e

class Run:
    def __init__(self, path):
        self.path = path
        with h5py.File(path, "r") as f:
            grp = f["particles/all"]
            self.edges = h5md_box_edges(grp["box"])
            self.boundary = [b.decode() if isinstance(b, bytes) else str(b)
                             for b in grp["box"].attrs["boundary"]]
            self.pos_step = np.asarray(grp["position/step"][()])
            self.pos = np.asarray(grp["position/value"][()], dtype=float)
            self.energy = {}
            for name in ENERGIES:
                if "observables/" + name in f:
                    o = f["observables/" + name]
                    self.energy[name] = (np.asarray(o["step"][()]),
                                         np.asarray(o["value"][()], dtype=float))

    @property
    def periodic(self):
        return all(b == "periodic" for b in self.boundary)


def position_deviation(a, b, pa, pb):
    d = pa - pb
    if a.periodic:
        d -= a.edges * np.round(d / a.edges)
    return float(np.max(np.abs(d))) if d.size else 0.0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--horizon", type=int, default=100,
                   help="compare steps 0..horizon (default 100)")
    p.add_argument("--pos-tol", type=float, default=1e-6,
                   help="max position difference [sigma] (default 1e-6; single precision: 1e-3)")
    p.add_argument("--energy-tol", type=float, default=1e-8,
                   help="max relative energy difference (default 1e-8; single precision: 1e-4)")
    args = p.parse_args(argv)
    try:
        a, b = Run(args.a), Run(args.b)
    except (OSError, KeyError) as e:
        print("error: cannot read an md2d H5MD file: %s" % e)
        return 2
    if a.pos.shape[1:] != b.pos.shape[1:]:
        print("error: different systems: %r vs %r particles x dim" % (a.pos.shape[1:], b.pos.shape[1:]))
        return 2
    if not np.allclose(a.edges, b.edges, rtol=1e-12) or a.boundary != b.boundary:
        print("error: different boxes: %r %r vs %r %r" % (a.edges, a.boundary, b.edges, b.boundary))
        return 2

    failures = 0
    common = sorted(set(a.pos_step.tolist()) & set(b.pos_step.tolist()))
    common = [s for s in common if s <= args.horizon]
    if not common or common[0] != min(a.pos_step[0], b.pos_step[0]):
        print("error: the files share no initial frame")
        return 2
    print("positions (max |dx|, tolerance %.1e):" % args.pos_tol)
    for s in common:
        ia = int(np.nonzero(a.pos_step == s)[0][0])
        ib = int(np.nonzero(b.pos_step == s)[0][0])
        dev = position_deviation(a, b, a.pos[ia], b.pos[ib])
        bad = dev > args.pos_tol
        failures += bad
        print("  step %8d  %.3e  %s" % (s, dev, "FAIL" if bad else "ok"))

    print("energies (max relative difference, tolerance %.1e):" % args.energy_tol)
    for name in ENERGIES:
        if name not in a.energy or name not in b.energy:
            print("  %-17s missing in one file" % name)
            continue
        (sa, va), (sb, vb) = a.energy[name], b.energy[name]
        steps = sorted(s for s in set(sa.tolist()) & set(sb.tolist()) if s <= args.horizon)
        if not steps:
            print("  %-17s no common steps" % name)
            continue
        ea = np.array([va[np.nonzero(sa == s)[0][0]] for s in steps])
        eb = np.array([vb[np.nonzero(sb == s)[0][0]] for s in steps])
        scale = np.maximum(np.abs(ea), 1e-300)
        rel = float(np.max(np.abs(ea - eb) / scale))
        bad = rel > args.energy_tol
        failures += bad
        print("  %-17s %.3e over %d samples  %s" % (name, rel, len(steps), "FAIL" if bad else "ok"))

    print("result: %s" % ("agree" if failures == 0 else "DIFFER (%d checks failed)" % failures))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
