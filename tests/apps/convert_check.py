#!/usr/bin/env python3
"""`smelt convert`'s outputs read by the peers' own readers, against the H5MD file (h5py).

    convert_check.py gsd    H5MD_FILE WORKDIR SMELT...   the gsd package reads the .gsd
    convert_check.py lammps H5MD_FILE WORKDIR SMELT...   LAMMPS (lmp) starts from the .data
                                                         file: its energies at `run 0` equal
                                                         the app's at that frame; MDAnalysis
                                                         reads the .lammpstrj dump
SMELT... is the command that runs the converter (`/path/to/smelt`, whose `convert` subcommand
is used). The LAMMPS input takes the pair parameters from the run's config (md3d: system.types,
potential.pairs or epsilon/sigma/r_cut, shift); the file must be of a periodic md3d run without
tail corrections.

Exit status: 0 ok, 1 a check failed, 77 gsd (resp. lmp) or h5py is not installed (skip).
"""

import os
import shutil
import subprocess
import sys
import warnings

try:
    import h5py
    import numpy as np
    import yaml
except ImportError as e:  # pragma: no cover - depends on the machine
    print("skip: %s" % e)
    sys.exit(77)

errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def convert(smelt, h5, out, *extra):
    r = subprocess.run(list(smelt) + ["convert", h5, out] + list(extra), capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise SystemExit("FAIL: smelt convert %s %s: exit %d\n%s%s"
                         % (h5, out, r.returncode, r.stdout, r.stderr))


def h5md(path):
    with h5py.File(path, "r") as f:
        p = f["particles/all"]
        d = {k: p[k + "/value"][()] for k in ("position", "velocity", "image", "species")}
        d["step"] = p["position/step"][()]
        d["edges"] = np.array([np.diag(e) for e in p["box/edges/value"][()]])
        d["config"] = yaml.safe_load(f["parameters"].attrs["config_yaml"])
        d["observables"] = {k: (v["step"][()], v["value"][()]) for k, v in f["observables"].items()}
    return d


def check_gsd(run, workdir, smelt, h5):
    try:
        import gsd.hoomd
    except ImportError as e:
        print("skip: the gsd package is not installed: %s" % e)
        return 77
    out = os.path.join(workdir, "run.gsd")
    convert(smelt, h5, out)
    try:
        traj = gsd.hoomd.open(out, mode="r")
    except ValueError:  # gsd < 3
        traj = gsd.hoomd.open(out, mode="rb")
    types = run["config"]["system"].get("types", ["A"])
    masses = run["config"]["system"].get("masses", [1.0] * len(types))
    with traj:
        check(len(traj) == len(run["step"]), "GSD has %d frames, H5MD %d"
              % (len(traj), len(run["step"])))
        for k, frame in enumerate(traj):
            L = run["edges"][k]
            check(frame.configuration.step == run["step"][k], "frame %d: step" % k)
            check(np.allclose(frame.configuration.box[:3], L) and
                  np.all(frame.configuration.box[3:] == 0), "frame %d: box" % k)
            # HOOMD's box is centred on the origin: positions shift by L/2, images stay.
            check(np.allclose(frame.particles.position, run["position"][k] - L / 2, atol=1e-5),
                  "frame %d: positions" % k)
            check(np.all(np.abs(frame.particles.position) <= L / 2 + 1e-5),
                  "frame %d: positions outside HOOMD's box" % k)
            check(np.allclose(frame.particles.velocity, run["velocity"][k], atol=1e-5),
                  "frame %d: velocities" % k)
            check(np.array_equal(frame.particles.image, run["image"][k]), "frame %d: images" % k)
            check(np.array_equal(frame.particles.typeid, run["species"][k]),
                  "frame %d: type ids" % k)
            check(list(frame.particles.types) == types, "frame %d: types %r"
                  % (k, frame.particles.types))
            check(np.allclose(frame.particles.mass, np.asarray(masses)[run["species"][k]]),
                  "frame %d: masses" % k)
    return 0


def lammps_input(config, data):
    system, pot = config.get("system", {}), config.get("potential", {})
    types = system.get("types", ["A"])
    pairs = {}
    for p in pot.get("pairs", []) or []:
        a, b = (types.index(t) + 1 for t in p["types"])
        pairs[(min(a, b), max(a, b))] = (p["epsilon"], p["sigma"], p["r_cut"])
    default = (pot.get("epsilon", 1.0), pot.get("sigma", 1.0), pot.get("r_cut", 2.5))
    lines = ["units lj", "atom_style atomic", "boundary p p p", "read_data %s" % data,
             "pair_style lj/cut %r" % max([default[2]] + [v[2] for v in pairs.values()])]
    if pot.get("shift", False):
        lines.append("pair_modify shift yes")
    for a in range(1, len(types) + 1):
        for b in range(a, len(types) + 1):
            eps, sig, rc = pairs.get((a, b), default)
            lines.append("pair_coeff %d %d %r %r %r" % (a, b, eps, sig, rc))
    lines += ["neighbor 0.3 bin", "thermo_style custom step pe ke",
              "thermo_modify norm no format float %.17g", "run 0"]
    return "\n".join(lines) + "\n"


def check_lammps(run, workdir, smelt, h5):
    lmp = shutil.which("lmp") or shutil.which("lmp_serial")
    if lmp is None:
        print("skip: LAMMPS (lmp) is not installed")
        return 77
    data = os.path.join(workdir, "run.data")
    convert(smelt, h5, data, "--frame", "0")
    script = os.path.join(workdir, "in.lmp")
    with open(script, "w") as f:
        f.write(lammps_input(run["config"], data))
    r = subprocess.run([lmp, "-in", script, "-log", "none"], capture_output=True, text=True,
                       cwd=workdir)
    if r.returncode != 0:
        errors.append("lmp failed (%d):\n%s%s" % (r.returncode, r.stdout, r.stderr))
        return 0
    out = r.stdout.splitlines()
    head = [i for i, line in enumerate(out) if line.split()[:3] == ["Step", "PotEng", "KinEng"]]
    if not head:
        errors.append("no thermo output from lmp:\n" + r.stdout)
        return 0
    _, pe, ke = (float(v) for v in out[head[0] + 1].split())
    step0 = run["step"][0]
    for name, got in (("potential_energy", pe), ("kinetic_energy", ke)):
        steps, values = run["observables"][name]
        want = values[list(steps).index(step0)]
        check(abs(got - want) <= 1e-9 * abs(want), "LAMMPS %s %.17g, the app's %.17g"
              % (name, got, want))
    print("LAMMPS at step %d: pe %.12g ke %.12g" % (step0, pe, ke))

    # The dump, read by MDAnalysis's LAMMPS dump reader (when it is installed).
    dump = os.path.join(workdir, "run.lammpstrj")
    convert(smelt, h5, dump)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import MDAnalysis as mda
    except ImportError:
        print("note: MDAnalysis is not installed, the dump is not read back")
        return 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        u = mda.Universe(dump, format="LAMMPSDUMP", lammps_coordinate_convention="unscaled")
    check(len(u.trajectory) == len(run["step"]), "dump: %d frames" % len(u.trajectory))
    for k, ts in enumerate(u.trajectory):
        check(np.allclose(ts.positions, run["position"][k], atol=1e-4), "dump frame %d" % k)
        check(np.allclose(ts.dimensions[:3], run["edges"][k]), "dump frame %d: box" % k)
    return 0


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ("gsd", "lammps"):
        print(__doc__, file=sys.stderr)
        return 2
    what, h5, smelt = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[4:]
    workdir = os.path.abspath(sys.argv[3])
    run = h5md(h5)
    status = (check_gsd if what == "gsd" else check_lammps)(run, workdir, smelt, h5)
    for e in errors:
        print("FAIL: " + e)
    if errors:
        return 1
    if status == 0:
        print("ok: %s output of %s" % (what, h5))
    return status


if __name__ == "__main__":
    sys.exit(main())
