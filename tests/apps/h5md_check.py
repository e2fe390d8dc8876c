#!/usr/bin/env python3
"""Checks with h5py that a file follows the H5MD 1.1 specification as the apps write it
(https://www.nongnu.org/h5md/h5md.html, and its units module):

  - h5md@version [1, 1]; author@name, creator@name and @version fixed-length strings, scalar;
  - particles/all/box: @dimension scalar integer, @boundary fixed-length strings [D] of
    "periodic" / "none"; edges a time-dependent element whose step and time are position's
    (hard links, as the specification requires of box and image);
  - every time-dependent particle element: value [frames, N, ...], step [frames] increasing
    integers, time [frames], both the same datasets as position's; id [N] integers;
  - observables: value, step, time of one length, their own clock;
  - with h5md/modules/units: @version [1, 0], @system and every @unit fixed-length strings.

    h5md_check.py FILE --n N --dim D --frames F [--observables K] [--observable NAME ...]

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


def fixed_string(obj, name):
    """Whether obj@name is a fixed-length string attribute (h5py: a bytes dtype of a length)."""
    info = h5py.check_string_dtype(obj.attrs.get_id(name).dtype)
    return info is not None and info.length is not None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--frames", type=int, required=True)
    p.add_argument("--observables", type=int, default=None, help="samples per observable")
    p.add_argument("--observable", action="append", default=None,
                   help="an observable that must be there (default: md2d's five)")
    a = p.parse_args()
    errors = []

    def check(cond, msg):
        if not cond:
            errors.append(msg)

    with h5py.File(a.file, "r") as f:
        check("h5md" in f, "no /h5md group")
        h5md = f["h5md"]
        check(list(h5md.attrs["version"]) == [1, 1], "h5md version is not [1, 1]")
        for obj, name in (("author", "name"), ("creator", "name"), ("creator", "version")):
            attrs = h5md[obj].attrs
            check(name in attrs and len(as_str(attrs[name])) > 0, "h5md/%s@%s empty" % (obj, name))
            check(fixed_string(h5md[obj], name), "h5md/%s@%s is not a fixed-length string"
                  % (obj, name))
            check(attrs.get_id(name).shape == (), "h5md/%s@%s is not scalar" % (obj, name))
        check(as_str(h5md["creator"].attrs["name"]).startswith("smelt"), "creator name")

        grp = f["particles/all"]
        box = grp["box"]
        check(int(box.attrs["dimension"]) == a.dim, "box dimension")
        check(box.attrs.get_id("dimension").shape == (), "box@dimension is not scalar")
        boundary = [as_str(b) for b in box.attrs["boundary"]]
        check(len(boundary) == a.dim and all(b in ("periodic", "none") for b in boundary),
              "box boundary %r" % boundary)
        check(fixed_string(box, "boundary"), "box@boundary is not fixed-length strings")
        position = grp["position"]
        clock = (position["step"], position["time"])
        edges = box["edges"]
        check(isinstance(edges, h5py.Group), "box/edges is not a time-dependent element")
        if isinstance(edges, h5py.Group):
            check(edges["value"].shape == (a.frames, a.dim, a.dim),
                  "box/edges/value shape %r" % (edges["value"].shape,))
            check(edges["step"] == clock[0] and edges["time"] == clock[1],
                  "box/edges step/time are not position's (hard links)")
            for k in range(min(a.frames, edges["value"].shape[0])):
                e = edges["value"][k]
                check(np.all(e == np.diag(np.diag(e))) and np.all(np.diag(e) > 0),
                      "box/edges/value[%d] is not a diagonal of positive edges" % k)
        check("id" in grp and grp["id"].shape == (a.n,)
              and np.issubdtype(grp["id"].dtype, np.integer), "id is not [N] integers")
        for name, el in grp.items():
            if not isinstance(el, h5py.Group) or name == "box":
                continue
            value, step, time = el["value"], el["step"], el["time"]
            check(value.shape[:2] == (a.frames, a.n), "%s/value shape %r" % (name, value.shape))
            check(step.shape == (a.frames,) and time.shape == (a.frames,), name + " step/time")
            check(np.issubdtype(step.dtype, np.integer), name + "/step is not integer")
            check(np.all(np.diff(step[()]) > 0), name + "/step not increasing")
            check(value.maxshape[0] is None, name + "/value is not extendable")
            if name != "position":
                check(step == clock[0] and time == clock[1],
                      name + " step/time are not position's (hard links)")
            if np.issubdtype(value.dtype, np.floating):
                check(np.all(np.isfinite(value[()])), name + "/value not finite")
        for name in ("position", "velocity"):
            check(grp[name]["value"].shape == (a.frames, a.n, a.dim),
                  "%s/value shape %r" % (name, grp[name]["value"].shape))

        obs = f["observables"]
        for name in a.observable or OBSERVABLES:
            check(name in obs, "observable %s missing" % name)
        for name, el in obs.items():
            k = el["value"].shape[0]
            check(el["step"].shape == (k,) and el["time"].shape == (k,),
                  name + ": value, step, time differ in length")
            check(el["step"] != clock[0], name + ": step is position's, not its own")
            check(np.all(np.diff(el["step"][()]) > 0), name + "/step not increasing")
            if a.observables is not None:
                check(k == a.observables, "%s has %d samples" % (name, k))
        check(isinstance(f["parameters"].attrs["config_yaml"], str), "config_yaml is not a string")

        units = h5md.get("modules/units")
        if units is not None:
            check(list(units.attrs["version"]) == [1, 0], "units module version")
            check(fixed_string(units, "system"), "units@system is not a fixed-length string")
            # MDAnalysis refuses unit strings it does not know: none where it looks.
            for name in ("position", "velocity", "force"):
                if name in grp:
                    check("unit" not in grp[name]["value"].attrs, name + "/value has a unit")
            check("unit" not in position["time"].attrs, "position/time has a unit")
            for name, el in obs.items():
                check("unit" in el["time"].attrs, "observables/%s/time has no unit" % name)

            def unit_attrs(name, obj):
                if "unit" in obj.attrs:
                    check(fixed_string(obj, "unit"), "%s@unit is not fixed-length" % name)
                    check(len(as_str(obj.attrs["unit"])) > 0, "%s@unit is empty" % name)
            f.visititems(unit_attrs)

    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok: %s is H5MD with %d frames of %d particles" % (a.file, a.frames, a.n))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
