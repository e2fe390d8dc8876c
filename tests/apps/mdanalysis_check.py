#!/usr/bin/env python3
"""MDAnalysis reads a 3D H5MD file of a Smelt app: every frame's positions, velocities, box and
time equal the datasets as h5py reads them.

    mdanalysis_check.py FILE

The recipe is the one apps/README.md documents: the file is named .h5 (MDAnalysis guesses
H5MD only from .h5md), MDAnalysis builds a topology from an H5MD file only when its particle
group is named "trajectory" (Smelt's is "all"), and it converts only the units it knows
(reduced Lennard-Jones units are not among them), hence format, topology_format, n_atoms and
convert_units.

Exit status: 0 ok, 1 a check failed, 77 MDAnalysis or h5py is not installed (the caller skips).
"""

import sys
import warnings

try:
    import h5py
    import numpy as np
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import MDAnalysis as mda
except ImportError as e:  # pragma: no cover - depends on the machine
    print("skip: %s" % e)
    sys.exit(77)


def main():
    path = sys.argv[1]
    with h5py.File(path, "r") as f:
        p = f["particles/all"]
        pos = p["position/value"][()]
        vel = p["velocity/value"][()]
        time = p["position/time"][()]
        step = p["position/step"][()]
        edges = p["box/edges/value"][()]
    frames, n = pos.shape[0], pos.shape[1]

    u = mda.Universe(path, format="H5MD", topology_format="MINIMAL", n_atoms=n,
                     convert_units=False)
    errors = []
    if len(u.trajectory) != frames:
        errors.append("%d frames, h5py: %d" % (len(u.trajectory), frames))
    if len(u.atoms) != n:
        errors.append("%d atoms, h5py: %d" % (len(u.atoms), n))
    for k, ts in enumerate(u.trajectory):
        # MDAnalysis keeps positions and velocities in single precision.
        if not np.allclose(ts.positions, pos[k], rtol=1e-6, atol=1e-5):
            errors.append("frame %d: positions differ" % k)
        if not ts.has_velocities or not np.allclose(ts.velocities, vel[k], rtol=1e-6, atol=1e-5):
            errors.append("frame %d: velocities differ" % k)
        box = np.diag(edges[k])
        if ts.dimensions is None or not np.allclose(ts.dimensions, list(box) + [90, 90, 90],
                                                    rtol=1e-6):
            errors.append("frame %d: box %r, h5py %r" % (k, ts.dimensions, box))
        if not np.isclose(ts.time, time[k], rtol=1e-12, atol=1e-12):
            errors.append("frame %d: time %r, h5py %r" % (k, ts.time, time[k]))
        if int(ts.data.get("step", -1)) != int(step[k]):
            errors.append("frame %d: step %r, h5py %r" % (k, ts.data.get("step"), step[k]))
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok: MDAnalysis %s reads %d frames of %d atoms of %s"
              % (mda.__version__, frames, n, path))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
