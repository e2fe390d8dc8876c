#!/usr/bin/env python3
"""HOOMD-blue starts from Smelt's GSD file and computes md3d's potential energy for that frame.

    hoomd_gsd_energy.py RUN.h5 [--gsd RUN.gsd] [--frame K] [--rtol 1e-6]

RUN.h5 is an md3d run's H5MD file (periodic box); RUN.gsd its conversion (`smelt convert RUN.h5
RUN.gsd`; without --gsd the script converts RUN.h5 itself with python/smelt/convert.py into a
temporary folder). The frame: --frame K (an index into the H5MD frames), else the last frame
whose step also has a potential_energy sample, else the last frame.

HOOMD reads the GSD file with `Simulation.create_state_from_gsd` and evaluates hoomd.md.pair.LJ
with the pair table, cutoff and shift of the run's config (stored in the H5MD file) at that
state (`sim.run(0)`). Three checks:

1. HOOMD's energy equals a NumPy O(N^2) evaluation on the GSD file's state (positions and box;
   relative 1e-10, per particle 1e-9): HOOMD read the file as written and evaluates the same
   potential.
2. The same NumPy evaluation at the H5MD positions equals md3d's energy for the frame (its
   observable when the step has one, and the sum of /particles/all/potential_energy; 1e-10).
3. HOOMD's energy equals md3d's to --rtol (default 1e-6): GSD stores positions and box edges in
   float32 (HOOMD's schema), so the two states differ by that rounding; the script prints what
   each rounding contributes (NumPy with the GSD positions in md3d's box).

Needs the `hoomd` package (HOOMD-blue 4; build: validation/README.md); prints a SKIP line and
exits 0 when `import hoomd` fails. Prints PASS or FAIL; exit 1 on a mismatch, 2 on unreadable
input.
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md3d_common import ROOT, pair_tables, read_frame, read_observables  # noqa: E402

CONVERTER = ROOT / "python" / "smelt" / "convert.py"
EXACT = 1e-10  # checks 1 and 2: the same positions, double precision on both sides


def lj_numpy(position, species, edges, eps, sig, rc, shift, rows=256):
    """Total and per-particle LJ energy (each pair's energy split equally), minimum image in a
    periodic box with edges; a plain O(N^2) double loop over row blocks."""
    n = len(position)
    eps, sig, rc = (np.asarray(t, dtype=float) for t in (eps, sig, rc))
    per = np.zeros(n)
    for start in range(0, n, rows):
        i = np.arange(start, min(start + rows, n))
        d = position[i, None, :] - position[None, :, :]
        d -= edges * np.round(d / edges)
        r2 = np.einsum("ijk,ijk->ij", d, d)
        a, b = species[i][:, None], species[None, :]
        e, s, c = eps[a, b], sig[a, b], rc[a, b]
        inside = (r2 < c * c) & (i[:, None] != np.arange(n)[None, :])
        sr6 = (s * s / np.where(inside, r2, 1.0)) ** 3
        u = 4 * e * (sr6 * sr6 - sr6)
        if shift:
            sc6 = (s / c) ** 6
            u -= 4 * e * (sc6 * sc6 - sc6)
        per[i] = 0.5 * np.sum(np.where(inside, u, 0.0), axis=1)
    return float(np.sum(per)), per


def choose_frame(h5, frame):
    import h5py
    with h5py.File(h5, "r") as f:
        steps = f["particles/all/position/step"][()]
        sampled = (set(f["observables/potential_energy/step"][()].tolist())
                   if "observables/potential_energy" in f else set())
    if frame is not None:
        return frame % len(steps)
    both = [k for k, s in enumerate(steps) if int(s) in sampled]
    return both[-1] if both else len(steps) - 1


def md3d_energy(h5, frame, step):
    """md3d's potential energy at a frame: (the observable or None, per-particle energies [N])."""
    import h5py
    with h5py.File(h5, "r") as f:
        per = np.asarray(f["particles/all/potential_energy/value"][frame], dtype=float)
    observable = None
    steps, _, values = read_observables(h5, ["potential_energy"])["potential_energy"]
    hit = np.nonzero(steps == step)[0]
    if len(hit):
        observable = float(values[hit[0]])
    return observable, per


def hoomd_energy(hoomd, gsd, frame, types, eps, sig, rc, shift):
    sim = hoomd.Simulation(device=hoomd.device.CPU(), seed=1)
    sim.create_state_from_gsd(filename=str(gsd), frame=frame)
    snap = sim.state.get_snapshot()
    state = {"types": list(snap.particles.types), "box": np.asarray(snap.configuration.box),
             "position": np.asarray(snap.particles.position, dtype=float),
             "typeid": np.asarray(snap.particles.typeid, dtype=np.int64),
             "step": int(sim.timestep)}
    nlist = hoomd.md.nlist.Cell(buffer=0.3)
    lj = hoomd.md.pair.LJ(nlist=nlist, mode="shift" if shift else "none")
    for a in range(len(types)):
        for b in range(a, len(types)):
            lj.params[(types[a], types[b])] = dict(epsilon=eps[a][b], sigma=sig[a][b])
            lj.r_cut[(types[a], types[b])] = rc[a][b]
    sim.operations.integrator = hoomd.md.Integrator(dt=0.001, forces=[lj])
    sim.run(0)
    return float(lj.energy), np.asarray(lj.energies, dtype=float), state


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("h5")
    p.add_argument("--gsd", default=None)
    p.add_argument("--frame", type=int, default=None)
    p.add_argument("--rtol", type=float, default=1e-6)
    a = p.parse_args(argv)
    try:
        import hoomd
        import hoomd.md  # noqa: F401
    except ImportError as e:
        print("SKIP: hoomd_gsd_energy: HOOMD-blue is absent (import hoomd: %s)" % e)
        return 0
    import yaml
    try:
        frame = choose_frame(a.h5, a.frame)
        ref = read_frame(a.h5, frame)
        if not all(ref["periodic"]):
            print("error: only periodic boxes are compared (GSD boxes are periodic)")
            return 2
        types, eps, sig, rc, shift, tail = pair_tables(yaml.safe_load(ref["config_yaml"]))
        if tail:
            print("error: potential.tail is on; this check compares pair energies without it")
            return 2
        observable, per_md3d = md3d_energy(a.h5, frame, ref["step"])
        tmp = None
        gsd = a.gsd
        if gsd is None:
            tmp = tempfile.TemporaryDirectory()
            gsd = str(Path(tmp.name) / "run.gsd")
            subprocess.run([sys.executable, str(CONVERTER), a.h5, gsd], check=True,
                           stdout=subprocess.DEVNULL)
    except (OSError, KeyError, subprocess.CalledProcessError) as e:
        print("error: cannot read %s (%s)" % (a.h5, e))
        return 2

    u_hoomd, per_hoomd, state = hoomd_energy(hoomd, gsd, frame, types, eps, sig, rc, shift)
    edges = ref["edges"]
    ok = True
    print("frame %d (step %d): N = %d, types %s, box %s; HOOMD %s read frame %d of %s (step %d)"
          % (frame, ref["step"], len(ref["position"]), types, " x ".join("%.6g" % e for e in edges),
             hoomd.version.version, frame, gsd, state["step"]))
    same = (state["types"] == list(types) and np.allclose(state["box"][:3], edges, rtol=1e-6)
            and np.all(state["box"][3:] == 0) and state["step"] == ref["step"]
            and np.array_equal(state["typeid"], ref["species"]))
    print("state: %s (type names, box, step and every particle's type)" % ("ok" if same else "FAIL"))
    ok &= same

    # 1. HOOMD against NumPy on the GSD file's state: its float32 positions (centred box) and its
    # float32 box edges, as HOOMD holds them.
    gsd_edges = state["box"][:3]
    u_np_gsd, per_np_gsd = lj_numpy(state["position"], state["typeid"], gsd_edges, eps, sig, rc,
                                    shift)
    d1 = abs(u_hoomd - u_np_gsd) / abs(u_np_gsd)
    d1p = float(np.max(np.abs(per_hoomd - per_np_gsd)))
    good = d1 <= EXACT and d1p <= 1e-9
    print("1. HOOMD %.12g vs NumPy on the GSD state %.12g: rel %.2e, per-particle max %.2e %s"
          % (u_hoomd, u_np_gsd, d1, d1p, "ok" if good else "FAIL"))
    ok &= good

    # 2. NumPy at the H5MD positions against md3d's own energy.
    u_np_h5, per_np_h5 = lj_numpy(ref["position"], ref["species"], edges, eps, sig, rc, shift)
    sums = {"per-particle sum": float(np.sum(per_md3d))}
    if observable is not None:
        sums["observable"] = observable
    for name, value in sums.items():
        d2 = abs(value - u_np_h5) / abs(u_np_h5)
        good = d2 <= EXACT
        print("2. md3d %s %.12g vs NumPy at the H5MD positions %.12g: rel %.2e %s"
              % (name, value, u_np_h5, d2, "ok" if good else "FAIL"))
        ok &= good
    print("   md3d per-particle energies vs NumPy: max |diff| %.2e"
          % float(np.max(np.abs(per_md3d - per_np_h5))))

    # 3. HOOMD from the GSD file against md3d, and what the float32 rounding of the positions
    # and of the box edges each contribute (NumPy with the GSD positions in md3d's box).
    u_md3d = observable if observable is not None else sums["per-particle sum"]
    u_np_mixed, _ = lj_numpy(state["position"] + 0.5 * edges, state["typeid"], edges, eps, sig,
                             rc, shift)
    d3 = abs(u_hoomd - u_md3d) / abs(u_md3d)
    good = d3 <= a.rtol
    print("3. HOOMD %.12g vs md3d %.12g: difference %.3g (rel %.2e, bound %.0e) %s"
          % (u_hoomd, u_md3d, u_hoomd - u_md3d, d3, a.rtol, "ok" if good else "FAIL"))
    print("   float32 rounding in GSD: of the positions %.3g, of the box edges (max %.2g) %.3g"
          % (u_np_mixed - u_np_h5, float(np.max(np.abs(gsd_edges - edges))),
             u_np_gsd - u_np_mixed))
    ok &= good
    print("%s: hoomd_gsd_energy: HOOMD's LJ energy from Smelt's GSD file matches md3d's"
          % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
