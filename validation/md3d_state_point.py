#!/usr/bin/env python3
"""The LJ fluid at a NIST reference state point: md3d (NVT Langevin) against published U/N, P.

    md3d_state_point.py [--binary build/apps/md3d/md3d] [--workdir out/md3d_state_point]
                        [--steps 60000] [--equilibration 10000] [--sigmas 3]
    md3d_state_point.py --h5 RUN.h5 [--equilibration-time 50]     # analyse an existing run

Reference: NIST Standard Reference Simulation Website (SRSW), "Lennard-Jones Fluid Properties",
page "MC: NVT Monte Carlo results" (https://www.nist.gov/mml/csd/chemical-informatics-group/
lennard-jones-fluid-properties, data at mmlapps.nist.gov/srs/LJ_PURE/mc.htm): N = 500, LJ
truncated at rc = 3.0 sigma (not shifted) with analytic long-range corrections to energy and
pressure, canonical Monte Carlo. At T* = 0.85, rho* = 0.776:
    U*/N = -5.5121   +- 4.55e-4
    P*   =  6.7714e-3 +- 1.49e-3
(the +- values are the uncertainties NIST lists next to the means).

The run: 500 particles from an fcc lattice (5 x 5 x 5 cells) at rho = 0.776 with velocities at
T = 1.5 (so the crystal melts at once), Langevin BAOAB at kT = 0.85 (gamma 1, dt 0.005), rc = 3 without shift, tail corrections on (potential.tail), an
all-pairs neighbour list (the 8.6-sigma box holds fewer than 3 cells of 3.3). After the
equilibration the script averages PE/N and the pressure from the H5MD observables, estimates
their standard errors by block averaging (the largest error over block lengths that leave at
least 32 blocks, a conservative plateau estimate), and passes when both means lie within
--sigmas combined standard errors sqrt(se^2 + nist^2) of NIST's values. It also reports the
mean kinetic temperature (2 KE / 3N) and requires it within 1 % of 0.85.
Prints one PASS or FAIL line; exit 1 on FAIL, 2 when md3d cannot be run or read.
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md3d_common import DEFAULT_BINARY, ScriptError, read_observables, run_md3d  # noqa: E402

T_STAR, RHO_STAR, N, RC = 0.85, 0.776, 500, 3.0
T_START = 1.5  # hot start: the fcc lattice melts within a few tau, the bath then cools it
NIST_U, NIST_U_ERR = -5.5121, 4.55e-4
NIST_P, NIST_P_ERR = 6.7714e-3, 1.49e-3


def config(steps, dt, gamma, seed, backend, precision):
    return {
        "backend": backend, "precision": precision,
        "system": {"lattice": "fcc", "cells": [5, 5, 5], "density": RHO_STAR,
                   "boundary": "periodic", "temperature": T_START, "seed": seed},
        "potential": {"kind": "lj", "epsilon": 1.0, "sigma": 1.0, "r_cut": RC, "shift": False,
                      "tail": True},
        "integrator": {"kind": "langevin", "kT": T_STAR, "gamma": gamma, "dt": dt,
                       "steps": steps, "seed": seed},
        "neighbor": {"mode": "all_pairs", "skin": 0.3, "rebuild": "displacement"},
        "output": {"frame_interval": steps if steps > 0 else 1, "thermo_interval": 10,
                   "h5md": True, "csv": True},
    }


def block_standard_error(x, min_blocks=32):
    """Mean and its standard error by block averaging (Flyvbjerg & Petersen, J. Chem. Phys. 91,
    461 (1989)): the largest error over block lengths 1, 2, 4, ... leaving >= min_blocks."""
    x = np.asarray(x, dtype=float)
    best, length = 0.0, 1
    while len(x) // length >= min_blocks:
        nb = len(x) // length
        means = x[:nb * length].reshape(nb, length).mean(axis=1)
        best = max(best, means.std(ddof=1) / math.sqrt(nb))
        length *= 2
    return float(np.mean(x)), best


def analyse(h5, t_equil, sigmas):
    obs = read_observables(h5, ["potential_energy", "pressure", "kinetic_energy"])
    import h5py
    with h5py.File(h5, "r") as f:
        n = f["particles/all/position/value"].shape[1]
    _, t, pe = obs["potential_energy"]
    keep = t >= t_equil
    if np.sum(keep) < 64:
        raise ScriptError("%s: only %d samples after t = %g (need >= 64)" % (h5, np.sum(keep),
                                                                             t_equil))
    u, u_se = block_standard_error(pe[keep] / n)
    p, p_se = block_standard_error(obs["pressure"][2][keep])
    temp, temp_se = block_standard_error(2 * obs["kinetic_energy"][2][keep] / (3 * n))
    z_u = (u - NIST_U) / math.sqrt(u_se ** 2 + NIST_U_ERR ** 2)
    z_p = (p - NIST_P) / math.sqrt(p_se ** 2 + NIST_P_ERR ** 2)
    print("file:         %s (N = %d, %d samples after t = %g)" % (h5, n, np.sum(keep), t_equil))
    print("U/N:          %.5f +- %.5f   NIST %.5f +- %.5f   z = %+.2f"
          % (u, u_se, NIST_U, NIST_U_ERR, z_u))
    print("P:            %.5f +- %.5f   NIST %.5f +- %.5f   z = %+.2f"
          % (p, p_se, NIST_P, NIST_P_ERR, z_p))
    print("T (2KE/3N):   %.5f +- %.5f   bath %.2f" % (temp, temp_se, T_STAR))
    ok_t = abs(temp - T_STAR) <= 0.01 * T_STAR
    ok = abs(z_u) <= sigmas and abs(z_p) <= sigmas and ok_t and n == N
    if n != N:
        print("note: N = %d, but NIST's values are for N = %d" % (n, N))
    print("%s: md3d_state_point T*=%.2f rho*=%.3f: U/N %.4f (z %+.1f), P %.4f (z %+.1f), "
          "T %.4f; bound |z| <= %g, |T - %.2f| <= 1%%"
          % ("PASS" if ok else "FAIL", T_STAR, RHO_STAR, u, z_u, p, z_p, temp, sigmas, T_STAR))
    return 0 if ok else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--binary", default=str(DEFAULT_BINARY))
    p.add_argument("--workdir", default="out/md3d_state_point")
    p.add_argument("--h5", default=None, help="analyse this H5MD file instead of running md3d")
    p.add_argument("--steps", type=int, default=60000, help="steps in total (default 60000)")
    p.add_argument("--equilibration", type=int, default=10000,
                   help="steps left out of the averages (default 10000)")
    p.add_argument("--equilibration-time", type=float, default=None,
                   help="with --h5: time left out of the averages (default 50 tau)")
    p.add_argument("--dt", type=float, default=0.005)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=2007)
    p.add_argument("--backend", default="cpu")
    p.add_argument("--precision", default="double", choices=["double", "single"])
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--sigmas", type=float, default=3.0,
                   help="bound on |mean - NIST| / combined standard error (default 3)")
    a = p.parse_args(argv)
    try:
        if a.h5:
            h5 = a.h5
            t_equil = a.equilibration_time if a.equilibration_time is not None else 50.0
        else:
            run = run_md3d(a.binary, config(a.steps, a.dt, a.gamma, a.seed, a.backend,
                                            a.precision), a.workdir, "lj_state_point",
                           threads=a.threads)
            h5, t_equil = run["h5"], a.equilibration * a.dt
            print("md3d:         %d steps in %.1f s" % (a.steps, run["seconds"]))
        return analyse(h5, t_equil, a.sigmas)
    except ScriptError as e:
        print("error: %s" % e)
        return 2
    except (OSError, KeyError) as e:
        print("error: cannot read the H5MD output (%s)" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
