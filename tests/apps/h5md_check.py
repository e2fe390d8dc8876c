#!/usr/bin/env python3
"""Checks with h5py that a file follows the H5MD 1.1 layout md2d writes.

    h5md_check.py FILE --n N --dim D --frames F [--observables K]

Exit status: 0 ok, 1 a check failed, 77 h5py is not installed (the caller skips).
"""

import argparse
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover - depends on the machine
    print("skip: %s" % e)
    sys.exit(77)

OBSERVABLES = ["potential_energy", "kinetic_energy", "total_energy", "temperature", "pressure"]


def as_str(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--frames", type=int, required=True)
    p.add_argument("--observables", type=int, default=None, help="samples per observable")
    a = p.parse_args()
    errors = []

    def check(cond, msg):
        if not cond:
            errors.append(msg)

    with h5py.File(a.file, "r") as f:
        check("h5md" in f, "no /h5md group")
        h5md = f["h5md"]
        check(list(h5md.attrs["version"]) == [1, 1], "h5md version is not [1, 1]")
        check(len(as_str(h5md["author"].attrs["name"])) > 0, "author has no name")
        check(as_str(h5md["creator"].attrs["name"]).startswith("smelt"), "creator name")
        check(len(as_str(h5md["creator"].attrs["version"])) > 0, "creator version")

        grp = f["particles/all"]
        box = grp["box"]
        check(int(box.attrs["dimension"]) == a.dim, "box dimension")
        boundary = [as_str(b) for b in box.attrs["boundary"]]
        check(len(boundary) == a.dim and all(b in ("periodic", "none") for b in boundary),
              "box boundary %r" % boundary)
        check(box["edges"].shape == (a.dim,), "box edges shape")
        for name in ("position", "velocity"):
            el = grp[name]
            value, step, time = el["value"], el["step"], el["time"]
            check(value.shape == (a.frames, a.n, a.dim),
                  "%s/value shape %r" % (name, value.shape))
            check(step.shape == (a.frames,) and time.shape == (a.frames,), name + " step/time")
            check(np.issubdtype(step.dtype, np.integer), name + "/step is not integer")
            check(np.all(np.diff(step[()]) > 0), name + "/step not increasing")
            check(np.all(np.isfinite(value[()])), name + "/value not finite")
            check(value.maxshape[0] is None, name + "/value is not extendable")

        obs = f["observables"]
        for name in OBSERVABLES:
            check(name in obs, "observable %s missing" % name)
            if name in obs and a.observables is not None:
                check(obs[name]["value"].shape == (a.observables,), name + " value shape")
                check(obs[name]["step"].shape == (a.observables,), name + " step shape")
                check(obs[name]["time"].shape == (a.observables,), name + " time shape")
        check(isinstance(f["parameters"].attrs["config_yaml"], str), "config_yaml is not a string")

    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok: %s is H5MD with %d frames of %d particles" % (a.file, a.frames, a.n))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
