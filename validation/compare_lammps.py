#!/usr/bin/env python3
"""md3d against LAMMPS on the same system from the same state: thermo step by step, and speed.

    compare_lammps.py [--config configs/md3d_lammps_inlj.yaml] [--steps 300]
                      [--binary build/apps/md3d/md3d] [--lmp lmp] [--workdir out/compare_lammps]
                      [--rtol 1e-6] [--speed-steps N] [--threads N]
    compare_lammps.py --from-h5md RUN.h5 --config CONFIG [...]   # compare an existing md3d run

1. Runs md3d on the config (NVE; thermo and frames every step, --steps steps), or takes an
   existing run's H5MD file (--from-h5md, which must hold thermo at every step).
2. Writes md3d's step-0 state (positions, image flags, velocities, types, masses, box) as a
   LAMMPS data file, and a LAMMPS input with the same physics: `units lj`, `pair_style lj/cut`
   with one `pair_coeff` per type pair (epsilon, sigma, r_cut), `pair_modify shift/tail` as in
   the config, `neighbor <skin> bin`, `neigh_modify every 1 delay 0 check yes` (no missed pair,
   as md3d's displacement rule), `fix nve`, the same timestep, thermo every step.
3. Runs LAMMPS and compares PE, KE, total energy, temperature and pressure at every common step.
   Both use Nf = 3N - 3 for T and the same pressure, (2 KE + W) / (3V) (+ tail): LAMMPS'
   compute pressure takes its kinetic part as dof k T / (3V) = 2 KE / (3V).
4. Times both on the same state without per-step output (--speed-steps, default --steps):
   md3d's particle-steps/s from its summary line, LAMMPS' atom-steps/s from "Loop time".

Both integrate the same deterministic equations, so the thermo agrees to rounding at first;
MD is chaotic and the difference grows ~e-fold per 0.2 tau, reaching 1e-10 relative only after
several tau for a dense liquid: over a few hundred steps at dt 0.005 the default bound 1e-6 on
the relative difference (relative to |PE| + KE for energies, to |P| + rho T for the pressure)
is loose for the physics and tight for any bug (a wrong pair, cutoff, shift, tail or mass).
Only periodic boxes are compared (LAMMPS' walls differ). Prints one PASS or FAIL line; exit 1
on a mismatch, 2 when a program cannot be run or the config is not comparable.
"""

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md3d_common import (DEFAULT_BINARY, ROOT, ScriptError, derived, load_config,  # noqa: E402
                         pair_tables, read_frame, read_observables, run_md3d)

THERMO_KEYS = ("Step", "Temp", "PotEng", "KinEng", "TotEng", "Press")


def write_data_file(path, state, masses, ntypes):
    pos, vel, img = state["position"], state["velocity"], state["image"]
    n = len(pos)
    if img is None:
        img = np.zeros((n, 3), dtype=np.int64)
    lx, ly, lz = state["edges"]
    lines = ["LAMMPS data file written by smelt validation/compare_lammps.py from md3d step %d"
             % state["step"], "", "%d atoms" % n, "%d atom types" % ntypes, "",
             "0.0 %.17g xlo xhi" % lx, "0.0 %.17g ylo yhi" % ly, "0.0 %.17g zlo zhi" % lz, "",
             "Masses", ""]
    lines += ["%d %.17g" % (t + 1, masses[t]) for t in range(ntypes)]
    lines += ["", "Atoms # atomic", ""]
    lines += ["%d %d %.17g %.17g %.17g %d %d %d" % (i + 1, state["species"][i] + 1, *pos[i],
                                                   *img[i]) for i in range(n)]
    lines += ["", "Velocities", ""]
    lines += ["%d %.17g %.17g %.17g" % (i + 1, *vel[i]) for i in range(n)]
    Path(path).write_text("\n".join(lines) + "\n")


def write_input(path, data_file, tables, skin, dt, steps, thermo_every):
    types, eps, sig, rc, shift, tail = tables
    nt = len(types)
    rc_max = max(rc[a][b] for a in range(nt) for b in range(nt))
    lines = ["units lj", "atom_style atomic", "boundary p p p", "read_data %s" % data_file,
             "pair_style lj/cut %.17g" % rc_max]
    for a in range(nt):
        for b in range(a, nt):
            lines.append("pair_coeff %d %d %.17g %.17g %.17g" % (a + 1, b + 1, eps[a][b],
                                                                  sig[a][b], rc[a][b]))
    lines += ["pair_modify shift %s tail %s" % ("yes" if shift else "no", "yes" if tail else "no"),
              "neighbor %.17g bin" % skin, "neigh_modify every 1 delay 0 check yes",
              "fix 1 all nve", "timestep %.17g" % dt,
              "thermo_style custom step temp pe ke etotal press",
              "thermo_modify norm no format float %.15g", "thermo %d" % thermo_every,
              "run %d" % steps]
    Path(path).write_text("\n".join(lines) + "\n")


def parse_log(text):
    """Thermo rows {step: (T, PE, KE, E, P)} and the loop time of the (last) run."""
    rows, in_block = {}, False
    for line in text.splitlines():
        words = line.split()
        if tuple(words[:6]) == THERMO_KEYS:
            in_block = True
            continue
        if in_block:
            if line.startswith("Loop time"):
                in_block = False
                continue
            try:
                values = [float(w) for w in words]
            except ValueError:
                continue
            if len(values) == 6:
                rows[int(values[0])] = tuple(values[1:])
    m = re.findall(r"Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms",
                   text)
    loop = (float(m[-1][0]), int(m[-1][1]), int(m[-1][2]), int(m[-1][3])) if m else None
    return rows, loop


def run_lammps(lmp_cmd, workdir, input_file, timeout=None):
    cmd = lmp_cmd.split() + ["-in", str(input_file), "-log", str(Path(workdir) / "log.lammps"),
                             "-screen", "none", "-nocite"]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir, timeout=timeout)
    except FileNotFoundError:
        raise ScriptError("LAMMPS not found: %s (install lammps or pass --lmp)" % lmp_cmd)
    seconds = time.perf_counter() - t0
    log = (Path(workdir) / "log.lammps").read_text() if (Path(workdir) / "log.lammps").exists() else ""
    if proc.returncode != 0:
        raise ScriptError("%s exited with %d:\n%s%s" % (" ".join(cmd), proc.returncode,
                                                       log[-3000:], proc.stderr[-2000:]))
    return parse_log(log) + (seconds,)


def compare(md3d_obs, lmp_rows, n, volume):
    """Rows of relative differences at every common step; the worst per quantity."""
    step = md3d_obs["potential_energy"][0]
    series = {k: dict(zip(md3d_obs[k][0].tolist(), md3d_obs[k][2].tolist()))
              for k in ("potential_energy", "kinetic_energy", "total_energy", "temperature",
                        "pressure")}
    worst = {k: (0.0, None) for k in ("pe", "ke", "etotal", "temp", "press")}
    common = [s for s in step.tolist() if s in lmp_rows]
    for s in common:
        t_l, pe_l, ke_l, e_l, p_l = lmp_rows[s]
        pe, ke = series["potential_energy"][s], series["kinetic_energy"][s]
        escale = abs(pe) + ke
        pscale = abs(series["pressure"][s]) + n * series["temperature"][s] / volume
        diffs = {"pe": abs(pe - pe_l) / escale, "ke": abs(ke - ke_l) / escale,
                 "etotal": abs(series["total_energy"][s] - e_l) / escale,
                 "temp": abs(series["temperature"][s] - t_l) / max(abs(t_l), 1e-300),
                 "press": abs(series["pressure"][s] - p_l) / pscale}
        for k, d in diffs.items():
            if d > worst[k][0]:
                worst[k] = (d, s)
    return common, worst


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default=str(ROOT / "configs" / "md3d_lammps_inlj.yaml"))
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--speed-steps", type=int, default=None,
                   help="steps of the timing runs (default --steps; 0: no timing)")
    p.add_argument("--binary", default=str(DEFAULT_BINARY))
    p.add_argument("--lmp", default="lmp", help="LAMMPS command, e.g. 'mpirun -np 2 lmp'")
    p.add_argument("--workdir", default="out/compare_lammps")
    p.add_argument("--from-h5md", default=None,
                   help="compare this md3d H5MD file instead of running md3d")
    p.add_argument("--threads", type=int, default=None, help="md3d CPU threads")
    p.add_argument("--rtol", type=float, default=1e-6)
    a = p.parse_args(argv)
    workdir = Path(a.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        cfg = load_config(a.config)
        integ = cfg.get("integrator", {})
        if integ.get("kind", "nve") != "nve":
            print("note: %s uses integrator %s; the comparison runs NVE from its initial state"
                  % (a.config, integ.get("kind")))
        tables = pair_tables(cfg)
        skin = float(cfg.get("neighbor", {}).get("skin", 0.3))
        dt = float(integ["dt"])
        nve = {k: v for k, v in integ.items() if k not in ("kT", "gamma", "tau", "seed")}
        nve.update({"kind": "nve", "steps": a.steps})
        if a.from_h5md:
            h5 = Path(a.from_h5md)
        else:
            run = run_md3d(a.binary, derived(cfg, integrator=nve,
                                             output={"thermo_interval": 1,
                                                     "frame_interval": max(a.steps, 1),
                                                     "h5md": True, "csv": False, "vtk": False}),
                           workdir, "md3d_thermo", threads=a.threads)
            h5 = run["h5"]
        state = read_frame(h5, 0)
        if not all(state["periodic"]):
            raise ScriptError("only periodic boxes are compared (boundary %s)" % state["periodic"])
        obs = read_observables(h5, ["potential_energy", "kinetic_energy", "total_energy",
                                    "temperature", "pressure"])
        n = len(state["position"])
        nt = len(tables[0])
        masses = [float(m) for m in cfg.get("system", {}).get("masses", [1.0] * nt)]
        if state["mass"] is not None:
            for t in range(nt):
                sel = state["species"] == t
                if np.any(sel):
                    masses[t] = float(state["mass"][sel][0])
        steps = int(obs["potential_energy"][0][-1])
        write_data_file(workdir / "md3d_state.data", state, masses, nt)
        write_input(workdir / "in.thermo", "md3d_state.data", tables, skin, dt, steps, 1)
        rows, loop, _ = run_lammps(a.lmp, workdir, workdir / "in.thermo")
    except ScriptError as e:
        print("error: %s" % e)
        return 2
    except (OSError, KeyError) as e:
        print("error: cannot read %s (%s)" % (a.from_h5md or "md3d's output", e))
        return 2

    volume = float(np.prod(state["edges"]))
    common, worst = compare(obs, rows, n, volume)
    print("system:       N = %d, %d types, box %s, dt %g, %d steps compared"
          % (n, nt, " x ".join("%.6g" % e for e in state["edges"]), dt, len(common)))
    if len(common) < 2:
        print("error: fewer than 2 common thermo steps (md3d %d samples, LAMMPS %d rows)"
              % (len(obs["potential_energy"][0]), len(rows)))
        return 2
    s0 = common[0]
    print("step %-6d    md3d PE %.12g KE %.12g P %.10g" % (s0, obs["potential_energy"][2][0],
                                                         obs["kinetic_energy"][2][0],
                                                         obs["pressure"][2][0]))
    print("             LAMMPS PE %.12g KE %.12g P %.10g"
          % (rows[s0][1], rows[s0][2], rows[s0][4]))
    ok = True
    for k, (d, s) in worst.items():
        good = d <= a.rtol
        ok = ok and good
        print("max rel diff %-7s %.3e at step %s  %s" % (k, d, s, "ok" if good else "FAIL"))

    speed_steps = a.speed_steps if a.speed_steps is not None else a.steps
    if speed_steps > 0 and not a.from_h5md:
        try:
            timing = run_md3d(a.binary, derived(cfg, integrator=dict(nve, steps=speed_steps),
                                                output={"thermo_interval": speed_steps,
                                                        "frame_interval": speed_steps,
                                                        "h5md": False, "csv": False,
                                                        "vtk": False}),
                              workdir, "md3d_speed", threads=a.threads)
            write_input(workdir / "in.speed", "md3d_state.data", tables, skin, dt, speed_steps,
                        speed_steps)
            _, lmp_loop, _ = run_lammps(a.lmp, workdir, workdir / "in.speed")
            lmp_rate = lmp_loop[3] * lmp_loop[2] / lmp_loop[0] if lmp_loop else float("nan")
            print("speed:        md3d %.4g particle-steps/s (%s) | LAMMPS %.4g atom-steps/s "
                  "(%d MPI rank%s) | md3d / LAMMPS = %.2f"
                  % (timing["rate"] or float("nan"),
                     "%s threads" % a.threads if a.threads else "default threads", lmp_rate,
                     lmp_loop[1] if lmp_loop else 0, "" if lmp_loop and lmp_loop[1] == 1 else "s",
                     (timing["rate"] or float("nan")) / lmp_rate))
        except ScriptError as e:
            print("speed: not measured (%s)" % e)
    print("%s: compare_lammps %d steps, N = %d: max relative difference %.2e (bound %.0e)"
          % ("PASS" if ok else "FAIL", len(common) - 1, n, max(d for d, _ in worst.values()),
             a.rtol))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
