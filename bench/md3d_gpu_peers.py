#!/usr/bin/env python3
"""md3d against OpenMM on one GPU, in the same run: HOOMD-blue's LJ benchmark system.

Runs build/bench/md3d_bench (cuda and opencl; single, mixed and double precision),
bench/openmm_lj.py (single, mixed and double) and bench/jaxmd_lj.py (JAX-MD, single and
double; left out of the table where jax or jax_md is missing) on the same system at each size,
one after the other on the same card, and prints the ratios the MD performance targets are
stated in:

    python3 bench/md3d_gpu_peers.py --md3d-bench build/bench/md3d_bench --cells 40 100 \\
        --seconds 3 --out bench/results/h100_md3d_openmm.json

Both codes integrate NVE after velocities drawn at kT = 1.2 (md3d: the config's Bussi
Bussi thermostat replaced by NVE), from the same simple-cubic start.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def nve_config(config):
    """The config with its thermostat replaced by NVE (a temporary file): OpenMM runs NVE."""
    out = []
    section = None
    for line in open(config):
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            section = line.strip()[:-1]
        key = line.strip().split(":")[0]
        if section == "integrator" and key in ("kT", "tau", "gamma", "seed"):
            continue
        if section == "integrator" and key == "kind":
            line = "  kind: nve\n"
        out.append(line)
    f = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
    f.write("".join(out))
    f.close()
    return f.name


def run_md3d(bench, config, cells, backend, seconds, precisions):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    cmd = [bench, "--config", config, "--set", "system.cells=[%d,%d,%d]" % (cells, cells, cells),
           "--backend", backend, "--precision", precisions,
           "--seconds", str(seconds), "--lammps", "", "--out", out]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=sys.stdout, stderr=sys.stderr)
    with open(out) as f:
        data = json.load(f)
    os.unlink(out)
    return [r for r in data["results"] if r.get("code", "").startswith("smelt")]


def run_openmm(cells, precision, seconds):
    """One OpenMM measurement in its own process: a CUDA context left alive in this process
    slowed the next md3d run on NVIDIA's OpenCL by two orders of magnitude (measured)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    subprocess.run([sys.executable, os.path.join(HERE, "openmm_lj.py"), "--cells", str(cells),
                    "--precision", precision, "--seconds", str(seconds), "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        result = json.load(f)["results"][0]
    os.unlink(out)
    return result


def run_jaxmd(cells, precision, seconds):
    """JAX-MD (bench/jaxmd_lj.py) in its own process; None when it fails (no jax, no jax_md)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    done = subprocess.run([sys.executable, os.path.join(HERE, "jaxmd_lj.py"), "--cells",
                           str(cells), "--precision", precision, "--seconds", str(seconds),
                           "--out", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = []
    if done.returncode == 0:
        with open(out) as f:
            results = json.load(f)["results"]
    os.unlink(out)
    return results[0] if results else None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--md3d-bench", default="build/bench/md3d_bench")
    p.add_argument("--config", default=os.path.join(HERE, "..", "configs",
                                                    "md3d_hoomd_bench.yaml"))
    p.add_argument("--cells", type=int, nargs="+", default=[40, 100])
    p.add_argument("--backends", default="cuda,opencl")
    p.add_argument("--precisions", default="single,mixed,double",
                   help="md3d's precisions (md3d_bench --precision)")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--jaxmd", default="single,double",
                   help="JAX-MD precisions to run ('' for none; bench/jaxmd_lj.py)")
    p.add_argument("--out")
    args = p.parse_args()

    config = nve_config(args.config)
    rows = []
    for cells in args.cells:
        smelt = {}
        for backend in args.backends.split(","):
            for r in run_md3d(args.md3d_bench, config, cells, backend, args.seconds,
                              args.precisions):
                smelt[(backend, r["precision"])] = r
        openmm = {}
        for precision in ("single", "mixed", "double"):
            r = run_openmm(cells, precision, args.seconds)
            print("OpenMM %s n=%d: %.3g" % (precision, r["n"], r["atom_steps_per_s"]), flush=True)
            openmm[precision] = r
        jaxmd = {}
        for precision in filter(None, args.jaxmd.split(",")):
            r = run_jaxmd(cells, precision, args.seconds)
            print("JAX-MD %s n=%d: %s" % (precision, cells ** 3,
                                          "%.3g" % r["atom_steps_per_s"] if r else "failed"),
                  flush=True)
            if r:
                jaxmd[precision] = r
        rows.append({"n": cells ** 3, "smelt": [smelt[k] for k in sorted(smelt)],
                     "openmm": [openmm[k] for k in ("single", "mixed", "double")],
                     "jaxmd": [jaxmd[k] for k in sorted(jaxmd)]})

    print("\n| N | precision | md3d cuda | md3d opencl | OpenMM CUDA | JAX-MD | cuda / OpenMM | "
          "cuda / JAX-MD | opencl / cuda |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        smelt = {(r["backend"], r["precision"]): r for r in row["smelt"]}
        openmm = {r["precision"]: r for r in row["openmm"]}
        jaxmd = {r["precision"]: r for r in row["jaxmd"]}
        for precision in ("single", "mixed", "double"):
            cu = smelt.get(("cuda", precision))
            cl = smelt.get(("opencl", precision))
            om = openmm[precision]
            f = lambda r: "%.3g" % r["atom_steps_per_s"] if r else "—"
            ratio = "%.2f" % (cu["atom_steps_per_s"] / om["atom_steps_per_s"]) if cu else "—"
            clr = ("%.2f" % (cl["atom_steps_per_s"] / cu["atom_steps_per_s"])
                   if cu and cl else "—")
            jx = jaxmd.get(precision)
            jratio = "%.1f" % (cu["atom_steps_per_s"] / jx["atom_steps_per_s"]) if cu and jx else "—"
            print("| %d | %s | %s | %s | %s | %s | %s | %s | %s |"
                  % (row["n"], precision, f(cu), f(cl), f(om), f(jx), ratio, jratio, clr))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"benchmark": "md3d_gpu_peers", "config": os.path.basename(args.config),
                       "integrator": "nve", "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
