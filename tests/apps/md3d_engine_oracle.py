#!/usr/bin/python3
"""apps/md3d/physics.py run by CPython on NumPy arrays, for tests/apps/md3d_engine_test.cpp: the
engine's compiled kernels must give what the same file gives as Python.

    md3d_engine_oracle.py IN.json > OUT.txt

IN.json: {"x", "y", "z", "vx", "vy", "vz": [N floats], "typ": [N ints], "box": [3],
          "periodic": mask, "eps", "sigma", "r_cut": [ntypes^2], "shift": 0|1, "mass": [ntypes],
          "walls": [stiffness, range], "dt", "gamma", "kT", "seed", "step"}
Output, one line per array "<part>.<name> v0 v1 ..." (floats as float.hex(), exact):
  forces.{fx, fy, fz, pe, vir}                      compute_forces_all_pairs + apply_walls
  nve.{x, ..., vz, ix, iy, iz}                      one velocity-Verlet step
  langevin.{x, ..., vz, ix, iy, iz, heat}           one BAOAB step (heat: sum of dke)
The steps run the kernels in the order of apps/md3d/README.md ("Integrators"), with forces over
all pairs (the engine's sorted neighbour lists sum the same pairs in the same order).
"""

import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "apps" / "common" / "kernels"),
                str(ROOT / "apps" / "md3d")]
import physics as P  # noqa: E402


def elementwise(f, n, *args):
    for i in range(n):
        f(i, *args)


class System:
    def __init__(self, d):
        self.n = len(d["x"])
        for k in ("x", "y", "z", "vx", "vy", "vz"):
            setattr(self, k, np.array(d[k], dtype=float))
        for k in ("fx", "fy", "fz", "pe", "vir", "dke"):
            setattr(self, k, np.zeros(self.n))
        for k in ("ix", "iy", "iz"):
            setattr(self, k, np.zeros(self.n, dtype=np.int32))
        self.typ = np.array(d["typ"], dtype=np.int32)
        self.box = [float(v) for v in d["box"]]
        self.periodic = int(d["periodic"])
        self.eps = np.array(d["eps"], dtype=float)
        self.sig = np.array(d["sigma"], dtype=float)
        self.rc2 = np.array(d["r_cut"], dtype=float) ** 2
        self.eshift = np.zeros(len(self.eps))
        self.mass = np.array(d["mass"], dtype=float)
        self.nt = len(self.mass)
        elementwise(P.pair_shift_table, len(self.eps), self.eps, self.sig, self.rc2, self.eshift,
                    int(d["shift"]))
        self.walls = [float(v) for v in d["walls"]]

    def pos(self):
        return (self.x, self.y, self.z)

    def forces(self):
        elementwise(P.compute_forces_all_pairs, self.n, *self.pos(), self.fx, self.fy, self.fz,
                    self.pe, self.vir, self.n, *self.box, self.periodic, self.typ, self.nt,
                    self.eps, self.sig, self.rc2, self.eshift)
        if self.periodic != 7:
            elementwise(P.apply_walls, self.n, *self.pos(), self.fx, self.fy, self.fz, self.pe,
                        *self.box, self.periodic, *self.walls)

    def kick(self, dt):
        elementwise(P.kick, self.n, self.vx, self.vy, self.vz, self.fx, self.fy, self.fz,
                    self.typ, self.mass, dt)

    def state(self):
        return {k: getattr(self, k) for k in ("x", "y", "z", "vx", "vy", "vz", "ix", "iy", "iz")}


def print_part(part, arrays):
    for name, values in arrays.items():
        words = [str(int(v)) if isinstance(v, (int, np.integer)) else float(v).hex()
                 for v in np.atleast_1d(values).tolist()]
        print("%s.%s %s" % (part, name, " ".join(words)))


def main(argv):
    d = json.loads(Path(argv[1]).read_text())
    s = System(d)
    s.forces()
    print_part("forces", {k: getattr(s, k) for k in ("fx", "fy", "fz", "pe", "vir")})

    dt = float(d["dt"])
    elementwise(P.kick_drift, s.n, *s.pos(), s.vx, s.vy, s.vz, s.fx, s.fy, s.fz, s.ix, s.iy,
                s.iz, s.typ, s.mass, dt, *s.box, s.periodic)
    s.forces()
    s.kick(dt)
    print_part("nve", s.state())

    s = System(d)
    s.forces()
    elementwise(P.baoab_kick_drift, s.n, *s.pos(), s.vx, s.vy, s.vz, s.fx, s.fy, s.fz, s.ix,
                s.iy, s.iz, s.typ, list(range(s.n)), s.mass, s.dke, dt, *s.box, s.periodic, float(d["gamma"]),
                float(d["kT"]), int(d["seed"]), int(d["step"]))
    s.forces()
    s.kick(dt)
    langevin = s.state()
    langevin["heat"] = math.fsum(P.heat_map(i, s.dke) for i in range(s.n))
    print_part("langevin", langevin)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
