#!/usr/bin/python3
"""A NumPy stand-in for the md3d binary's `run` command (a subset of apps/md3d/README.md).

    md3d_numpy_reference.py run CONFIG.yaml [--steps N] [--output DIR] [--threads N]
                                            [--backend B] [--precision P]

Written independently of physics.py (vectorised NumPy forces over all pairs, NumPy's random
generator for velocities and Langevin noise), it follows md3d's schema, equations and output
layout (H5MD, CSV, the closing "done after ..." line), so the validation scripts can be run and
checked before the C++ md3d exists, e.g.

    validation/md3d_lattice.py --binary tests/apps/md3d_numpy_reference.py

and so md3d's outputs can be cross-checked against it. Supported: lattices sc/bcc/fcc (cells or
n; density or lattice_constant; box, box_scale), boundary per axis with soft walls, types with
fractions/counts and masses, LJ pairs with shift and tail, integrators nve/langevin/bussi
(Bussi's factor from tests/apps/md3d_host_reference.py), output.h5md/csv. Not supported (an
error): random lattices, from_file, checkpoints, VTK. --threads, --backend and --precision are
accepted and ignored (always NumPy, double). A pair list with the config's skin, rebuilt by an
O(N^2) search when a particle moved skin/2: for small systems only.
"""

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import md3d_host_reference as H  # noqa: E402

BASES = {"sc": [(0.0, 0.0, 0.0)],
         "bcc": [(0.0, 0.0, 0.0), (0.5, 0.5, 0.5)],
         "fcc": [(0.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.0, 0.5), (0.0, 0.5, 0.5)]}
OFFSET = {"sc": 0.5, "bcc": 0.25, "fcc": 0.25}


class Unsupported(Exception):
    pass


def as3(v, what):
    if isinstance(v, (list, tuple)):
        if len(v) != 3:
            raise Unsupported("%s: need 3 values" % what)
        return list(v)
    return [v, v, v]


def initial_state(cfg, rng):
    s = cfg["system"]
    if "from_file" in s:
        raise Unsupported("system.from_file")
    kind = s["lattice"]
    if kind not in BASES:
        raise Unsupported("lattice %r" % kind)
    basis = np.array(BASES[kind])
    nb = len(basis)
    if "cells" in s:
        cells = [int(c) for c in s["cells"]]
        n = cells[0] * cells[1] * cells[2] * nb
    else:
        n = int(s["n"])
        c = 1
        while c ** 3 * nb < n:
            c += 1
        ncells = -(-n // nb)
        cells = [c, c, -(-ncells // (c * c))]  # c x c cells per layer, as many layers as needed
    a = float(s["lattice_constant"]) if "lattice_constant" in s else (nb / float(s["density"])) ** (1 / 3)
    k, j, i, b = np.meshgrid(np.arange(cells[2]), np.arange(cells[1]), np.arange(cells[0]),
                             np.arange(nb), indexing="ij")
    ijk = np.stack([i.ravel(), j.ravel(), k.ravel()], axis=1).astype(float)
    pos = (ijk + basis[b.ravel()] + OFFSET[kind]) * a
    pos = pos[:n]
    periodic = [v == "periodic" for v in as3(s.get("boundary", "periodic"), "boundary")]
    region = np.array(cells, dtype=float) * a
    if "box" in s:
        box = np.array(s["box"], dtype=float)
    else:
        scale = s.get("box_scale")
        scale = as3(scale, "box_scale") if scale is not None else [1.0 if p else 3.0 for p in periodic]
        box = region * np.array(scale, dtype=float)
    pos = pos + 0.5 * (box - region)
    types = s.get("types", ["A"])
    nt = len(types)
    if "counts" in s:
        counts = [int(c) for c in s["counts"]]
    else:
        fr = s.get("fractions", [1.0])
        counts = [int(math.floor(f * n + 0.5)) for f in fr[:-1]]
        counts.append(n - sum(counts))
    typ = rng.permutation(np.repeat(np.arange(nt), counts)).astype(np.int32)
    masses = np.array(s.get("masses", [1.0] * nt), dtype=float)
    return pos, box, periodic, typ, masses, types, counts


def degrees_of_freedom(n, periodic, kind):
    mask = sum(1 << k for k in range(3) if periodic[k])
    return H.degrees_of_freedom(n, mask, kind)


def initial_velocities(n, m, temperature, nf, rng):
    if temperature <= 0:
        return np.zeros((n, 3))
    v = rng.normal(size=(n, 3)) * np.sqrt(temperature / m)[:, None]
    v -= np.sum(m[:, None] * v, axis=0) / np.sum(m)
    return v * math.sqrt(nf * temperature / np.sum(m[:, None] * v * v))


class Forces:
    def __init__(self, cfg, types, box, periodic):
        pot = cfg.get("potential", {})
        nt = len(types)
        self.eps, self.sig, self.rc = (np.zeros((nt, nt)) for _ in range(3))
        if "pairs" in pot:
            for e in pot["pairs"]:
                a, b = (types.index(t) for t in e["types"])
                for i, j in ((a, b), (b, a)):
                    self.eps[i, j], self.sig[i, j] = e["epsilon"], e["sigma"]
                    self.rc[i, j] = e.get("r_cut", pot.get("r_cut", 2.5))
        else:
            self.eps[:] = pot.get("epsilon", 1.0)
            self.sig[:] = pot.get("sigma", 1.0)
            self.rc[:] = pot.get("r_cut", 2.5)
        sr6 = (self.sig / self.rc) ** 6
        self.eshift = 4 * self.eps * (sr6 * sr6 - sr6) if pot.get("shift", False) else 0 * sr6
        self.tail = bool(pot.get("tail", False))
        self.box, self.periodic = box, periodic
        w = cfg["system"].get("walls", {})
        self.k_wall, self.r_wall = float(w.get("stiffness", 50.0)), float(w.get("range", 0.5))
        self.skin = float(cfg.get("neighbor", {}).get("skin", 0.3))
        self.saved, self.builds = None, 0

    def pairs(self, pos):
        """Pairs i < j closer than max(rc) + skin (an O(N^2) search, by blocks of rows)."""
        rl = float(np.max(self.rc)) + self.skin
        n, out_i, out_j = len(pos), [], []
        for lo in range(0, n, 256):
            hi = min(n, lo + 256)
            d = self.separation(pos[lo:hi, None, :] - pos[None, :, :])
            r2 = np.sum(d * d, axis=-1)
            ii, jj = np.nonzero(r2 < rl * rl)
            keep = jj > ii + lo
            out_i.append(ii[keep] + lo)
            out_j.append(jj[keep])
        self.pi, self.pj = np.concatenate(out_i), np.concatenate(out_j)
        self.saved = pos.copy()
        self.builds += 1

    def separation(self, d):
        for k in range(3):
            if self.periodic[k]:
                d[..., k] -= self.box[k] * np.floor(d[..., k] / self.box[k] + 0.5)
        return d

    def __call__(self, pos, typ):
        """Forces, per-particle energies and the virial W; the pair list is rebuilt once a
        particle moved more than skin/2 since the last build."""
        n = len(pos)
        if self.saved is None or np.max(np.sum(self.separation(pos - self.saved) ** 2, axis=1)) > (0.5 * self.skin) ** 2:
            self.pairs(pos)
        i, j = self.pi, self.pj
        d = self.separation(pos[i] - pos[j])
        r2 = np.sum(d * d, axis=1)
        ti, tj = typ[i], typ[j]
        inside = r2 < self.rc[ti, tj] ** 2
        i, j, d, r2, ti, tj = i[inside], j[inside], d[inside], r2[inside], ti[inside], tj[inside]
        s6 = (self.sig[ti, tj] ** 2 / r2) ** 3
        u = 4 * self.eps[ti, tj] * (s6 * s6 - s6) - self.eshift[ti, tj]
        ff = 24 * self.eps[ti, tj] * (2 * s6 * s6 - s6) / r2
        f = np.zeros((n, 3))
        for k in range(3):
            f[:, k] = np.bincount(i, ff * d[:, k], n) - np.bincount(j, ff * d[:, k], n)
        pe = 0.5 * (np.bincount(i, u, n) + np.bincount(j, u, n))
        w = float(np.sum(ff * r2))
        for k in range(3):
            if not self.periodic[k]:
                for dist, sign in ((pos[:, k], 1.0), (self.box[k] - pos[:, k], -1.0)):
                    near = dist < self.r_wall
                    f[:, k] += sign * np.where(near, self.k_wall * (self.r_wall - dist), 0)
                    pe += np.where(near, 0.5 * self.k_wall * (self.r_wall - dist) ** 2, 0)
        return f, pe, w


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("command", choices=["run"])
    p.add_argument("config")
    p.add_argument("--steps", type=int)
    p.add_argument("--output")
    p.add_argument("--threads")
    p.add_argument("--backend")
    p.add_argument("--precision")
    a = p.parse_args(argv)
    import yaml
    cfg = yaml.safe_load(Path(a.config).read_text())
    cfg_text = Path(a.config).read_text()
    try:
        return run(cfg, cfg_text, a)
    except Unsupported as e:
        print("md3d_numpy_reference: error: not supported here: %s" % e, file=sys.stderr)
        return 1


def run(cfg, cfg_text, a):
    integ, out = cfg["integrator"], cfg.get("output", {})
    if out.get("checkpoint_interval", 0) or out.get("vtk", False):
        raise Unsupported("checkpoints / VTK")
    kind = integ.get("kind", "nve")
    steps = a.steps if a.steps is not None else int(integ["steps"])
    dt = float(integ["dt"])
    seed = int(cfg["system"].get("seed", 1))
    rng = np.random.default_rng(seed)
    pos, box, periodic, typ, masses, types, counts = initial_state(cfg, rng)
    n = len(pos)
    m = masses[typ]
    nf = degrees_of_freedom(n, periodic, kind)
    vel = initial_velocities(n, m, float(cfg["system"]["temperature"]), nf, rng)
    img = np.zeros((n, 3), dtype=np.int32)
    forces = Forces(cfg, types, box, periodic)
    volume = float(np.prod(box))
    u_tail = p_tail = 0.0
    if forces.tail:
        u_tail, p_tail = H.lj_tail(counts, volume, forces.eps.tolist(), forces.sig.tolist(),
                                   forces.rc.tolist())
    kT = float(integ.get("kT", 0.0))
    gamma, tau = float(integ.get("gamma", 1.0)), float(integ.get("tau", 0.5))
    tseed = int(integ.get("seed", seed))
    directory = Path(a.output or out.get("directory", "out/md3d"))
    prefix = out.get("prefix", "md3d")
    directory.mkdir(parents=True, exist_ok=True)
    thermo_every, frame_every = int(out.get("thermo_interval", 100)), int(out.get("frame_interval", 100))
    f, pe, w = forces(pos, typ)
    heat = 0.0
    frames, samples = [], []

    def sample(step):
        ke = 0.5 * float(np.sum(m[:, None] * vel * vel))
        pot = float(np.sum(pe)) + u_tail
        mom = np.sum(m[:, None] * vel, axis=0)
        samples.append((step, step * dt, pot, ke, pot + ke, 2 * ke / nf,
                        (2 * ke + w) / (3 * volume) + p_tail, pot + ke - heat, heat, *mom))

    def frame(step):
        frames.append((step, step * dt, pos.copy(), vel.copy(), img.copy()))

    sample(0)
    frame(0)
    t0 = time.perf_counter()
    for step in range(steps):
        vel += 0.5 * dt * f / m[:, None]
        if kind == "langevin":
            pos += 0.5 * dt * vel
            c1 = math.exp(-gamma * dt)
            v0 = 0.5 * np.sum(m[:, None] * vel * vel)
            vel = c1 * vel + np.sqrt((1 - c1 * c1) * kT / m)[:, None] * rng.normal(size=(n, 3))
            heat += 0.5 * np.sum(m[:, None] * vel * vel) - v0
            pos += 0.5 * dt * vel
        else:
            pos += dt * vel
        for k in range(3):
            if periodic[k]:
                shift = np.floor(pos[:, k] / box[k])
                pos[:, k] -= shift * box[k]
                img[:, k] += shift.astype(np.int32)
        f, pe, w = forces(pos, typ)
        vel += 0.5 * dt * f / m[:, None]
        if kind == "bussi":
            ke = 0.5 * float(np.sum(m[:, None] * vel * vel))
            alpha = H.bussi_alpha(ke, kT, nf, dt, tau, tseed, step)
            vel *= alpha
            heat += (alpha * alpha - 1) * ke
        done = step + 1
        if done % thermo_every == 0 or done == steps:
            sample(done)
        if done % frame_every == 0 or done == steps:
            frame(done)
    seconds = time.perf_counter() - t0
    files = []
    if out.get("h5md", True):
        files.append(write_h5md(directory / (prefix + ".h5"), cfg_text, box, periodic, typ, m,
                                types, frames, samples))
    if out.get("csv", True):
        path = directory / (prefix + "_thermo.csv")
        with open(path, "w") as fcsv:
            fcsv.write("step,time,pe,ke,etotal,temperature,pressure,conserved,px,py,pz\n")
            for s in samples:
                fcsv.write(",".join(repr(float(v)) if i else str(int(v))
                                    for i, v in enumerate(s[:8] + s[9:])) + "\n")
        files.append(path)
    rate = steps * n / seconds if seconds > 0 else 0.0
    print("\ndone after %d steps in %.3f s: %.4g particle-steps/s, %d neighbour builds, "
          "1 CPU threads" % (steps, seconds, rate, forces.builds))
    for path in files:
        print("wrote %s" % path)
    return 0


def write_h5md(path, cfg_text, box, periodic, typ, m, types, frames, samples):
    import h5py
    with h5py.File(path, "w") as f:
        h = f.create_group("h5md")
        h.attrs["version"] = np.array([1, 1], dtype=np.int32)
        h.create_group("author").attrs["name"] = "smelt"
        h.create_group("creator").attrs["name"] = "smelt md3d (tests/apps/md3d_numpy_reference.py)"
        allp = f.create_group("particles/all")
        b = allp.create_group("box")
        b.attrs["dimension"] = 3
        b.attrs["boundary"] = np.array([b"periodic" if p else b"none" for p in periodic])
        b.create_dataset("edges", data=np.asarray(box, dtype=float))
        for name, idx, dtype in (("position", 2, float), ("velocity", 3, float),
                                 ("image", 4, np.int32)):
            g = allp.create_group(name)
            g.create_dataset("value", data=np.array([fr[idx] for fr in frames], dtype=dtype))
            g.create_dataset("step", data=np.array([fr[0] for fr in frames], dtype=np.int64))
            g.create_dataset("time", data=np.array([fr[1] for fr in frames], dtype=float))
        allp.create_dataset("species", data=typ.astype(np.int32))
        allp.create_dataset("mass", data=np.asarray(m, dtype=float))
        obs = f.create_group("observables")
        names = ["potential_energy", "kinetic_energy", "total_energy", "temperature", "pressure",
                 "conserved_energy", "thermostat_heat"]
        arr = np.array(samples, dtype=float)
        for k, name in enumerate(names):
            g = obs.create_group(name)
            g.create_dataset("value", data=arr[:, 2 + k])
            g.create_dataset("step", data=arr[:, 0].astype(np.int64))
            g.create_dataset("time", data=arr[:, 1])
        g = obs.create_group("momentum")
        g.create_dataset("value", data=arr[:, 9:12])
        g.create_dataset("step", data=arr[:, 0].astype(np.int64))
        g.create_dataset("time", data=arr[:, 1])
        par = f.create_group("parameters")
        par.attrs["config_yaml"] = cfg_text
        par.attrs["units"] = "reduced Lennard-Jones units (sigma, epsilon, m, tau)"
        par.attrs["type_names"] = np.array([t.encode() for t in types])
    return path


if __name__ == "__main__":
    sys.exit(main())
