#!/usr/bin/env python3
"""md3d against HOOMD-blue on the same system from the same state: thermo step by step, speed.

    compare_hoomd.py [--config configs/md3d_hoomd_bench.yaml] [--steps 300] [--device CPU|GPU]
                     [--binary build/apps/md3d/md3d] [--workdir out/compare_hoomd] [--rtol 1e-6]
    compare_hoomd.py --from-h5md RUN.h5 --config CONFIG [...]

Needs the `hoomd` Python package (HOOMD-blue 3 or 4); when `import hoomd` fails it prints a
SKIP line and exits 0. Like compare_lammps.py: runs md3d (NVE, thermo every step) or takes an
existing H5MD file, builds a HOOMD snapshot from md3d's step-0 state (positions shifted by -L/2:
HOOMD's box is centred on the origin; velocities, type ids, masses, images), the same LJ pairs
(hoomd.md.pair.LJ with per-pair epsilon, sigma, r_cut; mode 'shift' or 'none';
tail_correction), a cell list with buffer = skin checked every step, and NVE velocity Verlet
(ConstantVolume without thermostat; NVE on HOOMD 3). Then compares PE, KE, total energy and
pressure at every step: HOOMD's pressure is (2K + W)/(3V), md3d's definition, so no conversion.
Speed: md3d's particle-steps/s against HOOMD's timesteps/s x N on the same state.
Prints one PASS, FAIL or SKIP line; exit 1 on a mismatch, 2 when a program cannot be run.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md3d_common import (DEFAULT_BINARY, ROOT, ScriptError, derived, load_config,  # noqa: E402
                         pair_tables, read_frame, read_observables, run_md3d)


def make_simulation(hoomd, state, tables, masses, skin, dt, device_name):
    types, eps, sig, rc, shift, tail = tables
    device = hoomd.device.GPU() if device_name == "GPU" else hoomd.device.CPU()
    sim = hoomd.Simulation(device=device, seed=1)
    snap = hoomd.Snapshot(device.communicator)
    if snap.communicator.rank == 0:
        lx, ly, lz = state["edges"]
        snap.configuration.box = [lx, ly, lz, 0, 0, 0]
        n = len(state["position"])
        snap.particles.N = n
        snap.particles.types = list(types)
        snap.particles.position[:] = state["position"] - 0.5 * state["edges"]
        snap.particles.velocity[:] = state["velocity"]
        snap.particles.typeid[:] = state["species"]
        snap.particles.mass[:] = np.asarray(masses)[state["species"]]
        if state["image"] is not None:
            snap.particles.image[:] = state["image"]
    sim.create_state_from_snapshot(snap)
    # HOOMD computes the virial only on steps where a writer or logger needs it; the thermo
    # compute's pressure is NaN otherwise.
    sim.always_compute_pressure = True
    nlist = hoomd.md.nlist.Cell(buffer=skin)
    kwargs = {"nlist": nlist, "mode": "shift" if shift else "none"}
    try:
        lj = hoomd.md.pair.LJ(tail_correction=tail, **kwargs)
    except TypeError:
        if tail:
            raise ScriptError("this HOOMD version has no LJ tail_correction; use tail: false")
        lj = hoomd.md.pair.LJ(**kwargs)
    for a in range(len(types)):
        for b in range(a, len(types)):
            lj.params[(types[a], types[b])] = dict(epsilon=eps[a][b], sigma=sig[a][b])
            lj.r_cut[(types[a], types[b])] = rc[a][b]
    if hasattr(hoomd.md.methods, "ConstantVolume"):
        method = hoomd.md.methods.ConstantVolume(filter=hoomd.filter.All())
    else:
        method = hoomd.md.methods.NVE(filter=hoomd.filter.All())
    integrator = hoomd.md.Integrator(dt=dt, methods=[method], forces=[lj])
    sim.operations.integrator = integrator
    thermo = hoomd.md.compute.ThermodynamicQuantities(filter=hoomd.filter.All())
    sim.operations.computes.append(thermo)
    return sim, thermo


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default=str(ROOT / "configs" / "md3d_hoomd_bench.yaml"))
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--speed-steps", type=int, default=None)
    p.add_argument("--device", default="CPU", choices=["CPU", "GPU"])
    p.add_argument("--backend", default="cpu", help="md3d backend (default cpu)")
    p.add_argument("--binary", default=str(DEFAULT_BINARY))
    p.add_argument("--workdir", default="out/compare_hoomd")
    p.add_argument("--from-h5md", default=None)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--rtol", type=float, default=1e-6)
    a = p.parse_args(argv)
    try:
        import hoomd
        import hoomd.md  # noqa: F401
    except ImportError as e:
        print("SKIP: compare_hoomd: HOOMD-blue is absent (import hoomd: %s)" % e)
        return 0
    workdir = Path(a.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        cfg = load_config(a.config)
        cfg["backend"] = a.backend
        integ = cfg.get("integrator", {})
        tables = pair_tables(cfg)
        skin = float(cfg.get("neighbor", {}).get("skin", 0.3))
        dt = float(integ["dt"])
        nve = {k: v for k, v in integ.items() if k not in ("kT", "gamma", "tau", "seed")}
        nve.update({"kind": "nve", "steps": a.steps})
        # Replaced, not merged (derived() merges): md3d rejects a thermostat's keys under nve.
        cfg["integrator"] = nve
        if a.from_h5md:
            h5 = Path(a.from_h5md)
        else:
            h5 = run_md3d(a.binary, derived(cfg, integrator=nve,
                                            output={"thermo_interval": 1,
                                                    "frame_interval": max(a.steps, 1),
                                                    "h5md": True, "csv": False, "vtk": False}),
                          workdir, "md3d_thermo", threads=a.threads)["h5"]
        state = read_frame(h5, 0)
        if not all(state["periodic"]):
            raise ScriptError("only periodic boxes are compared")
        obs = read_observables(h5, ["potential_energy", "kinetic_energy", "total_energy",
                                    "pressure"])
        nt = len(tables[0])
        masses = [1.0] * nt
        for t in range(nt):
            sel = state["species"] == t
            if state["mass"] is not None and np.any(sel):
                masses[t] = float(state["mass"][sel][0])
        sim, thermo = make_simulation(hoomd, state, tables, masses, skin, dt, a.device)
        steps = int(obs["potential_energy"][0][-1])
        md3d = {k: dict(zip(v[0].tolist(), v[2].tolist())) for k, v in obs.items()}
        sim.run(0)
        worst = {k: (0.0, None) for k in ("pe", "ke", "etotal", "press")}
        compared = 0
        for s in range(steps + 1):
            if s > 0:
                sim.run(1)
            if s not in md3d["potential_energy"]:
                continue
            pe, ke = thermo.potential_energy, thermo.kinetic_energy
            escale = abs(md3d["potential_energy"][s]) + md3d["kinetic_energy"][s]
            pscale = abs(md3d["pressure"][s]) + 2 * md3d["kinetic_energy"][s] / (3 * np.prod(state["edges"]))
            diffs = {"pe": abs(pe - md3d["potential_energy"][s]) / escale,
                     "ke": abs(ke - md3d["kinetic_energy"][s]) / escale,
                     "etotal": abs(pe + ke - md3d["total_energy"][s]) / escale,
                     "press": abs(thermo.pressure - md3d["pressure"][s]) / pscale}
            for k, d in diffs.items():
                d = d if np.isfinite(d) else np.inf  # a NaN from either side is a failure
                if d > worst[k][0]:
                    worst[k] = (d, s)
            compared += 1
        speed_steps = a.speed_steps if a.speed_steps is not None else a.steps
        rates = None
        if speed_steps > 0 and not a.from_h5md:
            timing = run_md3d(a.binary, derived(cfg, integrator=dict(nve, steps=speed_steps),
                                                output={"thermo_interval": speed_steps,
                                                        "frame_interval": speed_steps,
                                                        "h5md": False, "csv": False,
                                                        "vtk": False}),
                              workdir, "md3d_speed", threads=a.threads)
            sim2, _ = make_simulation(hoomd, state, tables, masses, skin, dt, a.device)
            sim2.run(0)
            t0 = time.perf_counter()
            sim2.run(speed_steps)
            hoomd_rate = len(state["position"]) * speed_steps / (time.perf_counter() - t0)
            rates = (timing["rate"], hoomd_rate)
    except ScriptError as e:
        print("error: %s" % e)
        return 2
    except (OSError, KeyError) as e:
        print("error: cannot read %s (%s)" % (a.from_h5md or "md3d's output", e))
        return 2
    print("system:       N = %d, %d types, box %s, dt %g, %d steps compared (HOOMD %s, %s)"
          % (len(state["position"]), nt, " x ".join("%.6g" % e for e in state["edges"]), dt,
             compared, hoomd.version.version, a.device))
    ok = compared >= 2
    for k, (d, s) in worst.items():
        good = d <= a.rtol
        ok = ok and good
        print("max rel diff %-7s %.3e at step %s  %s" % (k, d, s, "ok" if good else "FAIL"))
    if rates:
        print("speed:        md3d %.4g particle-steps/s | HOOMD %.4g particle-steps/s (%s) | "
              "md3d / HOOMD = %.2f" % (rates[0] or float("nan"), rates[1], a.device,
                                       (rates[0] or float("nan")) / rates[1]))
    print("%s: compare_hoomd %d steps: max relative difference %.2e (bound %.0e)"
          % ("PASS" if ok else "FAIL", max(compared - 1, 0),
             max(d for d, _ in worst.values()), a.rtol))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
