#!/usr/bin/env python3
"""OpenMM on HOOMD-blue's LJ benchmark system, the GPU peer of bench/md3d_bench.

The system of configs/md3d_hoomd_bench.yaml: a simple-cubic lattice of c^3 sites at density 1.0
(it melts at once), LJ with epsilon = sigma = 1 cut at 2.5 without shift or tail, velocities at
kT = 1.2, dt = 0.005, NVE (velocity Verlet). OpenMM is driven in reduced units through its own:
sigma = 1 nm, epsilon = 1 kJ/mol, m = 1 amu, so tau = 1 ps and kT = 1.2 kJ/mol is
1.2 / R = 144.3 K. A NonbondedForce with CutoffPeriodic, zero charges (the reaction-field term
then vanishes), no dispersion correction and no switching function is exactly the truncated,
unshifted LJ pair force; OpenMM picks its own neighbour-list padding.

    python3 bench/openmm_lj.py --cells 40 --precision single,mixed,double --seconds 3 --out F.json

Prints one line per precision and writes JSON with atom-steps per second. Needs the `openmm`
package with a CUDA platform (pip `openmm` and `openmm-cuda-13`); --platform picks another.
"""

import argparse
import json
import sys
import time


def build(cells, platform_name, precision):
    import openmm
    from openmm import unit

    n = cells ** 3
    box = float(cells)  # spacing 1.0: density 1.0
    system = openmm.System()
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box, 0, 0), openmm.Vec3(0, box, 0),
                                        openmm.Vec3(0, 0, box))
    force = openmm.NonbondedForce()
    force.setNonbondedMethod(openmm.NonbondedForce.CutoffPeriodic)
    force.setCutoffDistance(2.5)
    force.setUseDispersionCorrection(False)
    force.setUseSwitchingFunction(False)
    force.setReactionFieldDielectric(1.0)
    for _ in range(n):
        system.addParticle(1.0)
        force.addParticle(0.0, 1.0, 1.0)  # charge, sigma (nm), epsilon (kJ/mol)
    system.addForce(force)

    positions = []
    for i in range(cells):
        for j in range(cells):
            for k in range(cells):
                positions.append(openmm.Vec3(i + 0.5, j + 0.5, k + 0.5))

    integrator = openmm.VerletIntegrator(0.005)  # ps = 0.005 tau
    platform = openmm.Platform.getPlatformByName(platform_name)
    props = {}
    if platform_name in ("CUDA", "OpenCL"):
        props["Precision"] = precision
    if platform_name == "CUDA":
        props["DeviceIndex"] = "0"
    context = openmm.Context(system, integrator, platform, props)
    context.setPositions(positions)
    kT = 1.2 * unit.kilojoule_per_mole
    temperature = kT / unit.MOLAR_GAS_CONSTANT_R
    context.setVelocitiesToTemperature(temperature, 7)
    return n, context, integrator


def finish(context):
    # getState waits for every queued step (OpenMM's GPU platforms run asynchronously).
    return context.getState(getEnergy=True)


def measure(cells, platform_name, precision, seconds, warmup):
    n, context, integrator = build(cells, platform_name, precision)
    integrator.step(warmup)
    finish(context)
    chunk = 100
    steps = 0
    start = time.perf_counter()
    while True:
        integrator.step(chunk)
        steps += chunk
        if steps % 500 == 0:
            finish(context)
            if time.perf_counter() - start >= seconds:
                break
    state = finish(context)
    elapsed = time.perf_counter() - start
    pe = state.getPotentialEnergy()._value / n
    ke = state.getKineticEnergy()._value / n
    return {
        "code": "OpenMM " + __import__("openmm").__version__,
        "platform": platform_name,
        "precision": precision,
        "n": n,
        "steps": steps,
        "seconds": elapsed,
        "atom_steps_per_s": n * steps / elapsed,
        "potential_per_atom": pe,
        "kinetic_per_atom": ke,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", type=int, nargs="+", default=[40],
                   help="lattice sites per edge (40: 64 000 atoms; 100: 10^6)")
    p.add_argument("--precision", default="single,mixed,double")
    p.add_argument("--platform", default="CUDA")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--warmup", type=int, default=500, help="steps before the clock starts")
    p.add_argument("--out", help="JSON file to write")
    args = p.parse_args()
    try:
        import openmm  # noqa: F401
    except ImportError as e:
        sys.exit("openmm_lj.py: OpenMM is not importable (%s): pip install openmm "
                 "openmm-cuda-13" % e)
    results = []
    for cells in args.cells:
        for precision in args.precision.split(","):
            r = measure(cells, args.platform, precision, args.seconds, args.warmup)
            results.append(r)
            print("%s %s %-6s n=%d: %.3g atom-steps/s (U/N %.4f, K/N %.4f)" %
                  (r["code"], r["platform"], precision, r["n"], r["atom_steps_per_s"],
                   r["potential_per_atom"], r["kinetic_per_atom"]), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"benchmark": "openmm_lj", "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
