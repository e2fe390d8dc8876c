#!/usr/bin/env python3
"""JAX-MD on HOOMD-blue's LJ benchmark system, the second GPU peer of bench/md3d_bench.

The system of configs/md3d_hoomd_bench.yaml and bench/openmm_lj.py: a simple-cubic lattice of
c^3 sites at density 1.0 (it melts at once), LJ with epsilon = sigma = 1 cut at 2.5 without shift
or tail, velocities at kT = 1.2, dt = 0.005, NVE (velocity Verlet), a neighbour list of radius
2.5 + 0.4 that JAX-MD updates every step (its `update` rebuilds when a particle has moved more
than half the buffer). The pair energy is written here and handed to JAX-MD's
`smap.pair_neighbor_list`; forces are its gradient, as JAX-MD computes them.

    python3 bench/jaxmd_lj.py --cells 40 --precision single,double --seconds 3 --out F.json

Steps run inside `lax.fori_loop` in blocks of 100 (one compiled call per block); after each block
the list's overflow flag is read, and an overflowing list is reallocated and the block redone,
as JAX-MD's examples do. Needs `jax` with a GPU and the `jax_md` package. Only jax_md's
`space`, `partition`, `smap` and `simulate` modules are loaded, so its optional dependencies for
neural-network potentials (flax, e3nn-jax, ...) need not be installed.
"""

import argparse
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import time
import types


def load_jax_md():
    """jax_md's MD modules without its package __init__ (which imports flax, e3nn, ...)."""
    spec = importlib.util.find_spec("jax_md")
    if spec is None:
        raise ImportError("jax_md is not installed")
    pkg = types.ModuleType("jax_md")
    pkg.__path__ = list(spec.submodule_search_locations)
    sys.modules["jax_md"] = pkg
    mods = {}
    for name in ("util", "dataclasses", "space", "partition", "quantity", "smap", "simulate"):
        mods[name] = importlib.import_module("jax_md." + name)
        setattr(pkg, name, mods[name])
    return types.SimpleNamespace(**mods)


def measure(cells, precision, seconds, fmt_name):
    import jax
    jax.config.update("jax_enable_x64", precision == "double")
    import jax.numpy as jnp
    from jax import lax, random

    md = load_jax_md()
    dtype = jnp.float64 if precision == "double" else jnp.float32
    n = cells ** 3
    box = float(cells)
    rc, skin, dt, kT = 2.5, 0.4, 0.005, 1.2

    g = jnp.arange(cells, dtype=dtype) + 0.5
    px, py, pz = jnp.meshgrid(g, g, g, indexing="ij")
    positions = jnp.stack([px.ravel(), py.ravel(), pz.ravel()], axis=1)

    displacement, shift = md.space.periodic(jnp.asarray(box, dtype=dtype))

    def lj(dr):
        # Truncated, unshifted LJ: 4 (r^-12 - r^-6) below rc, 0 beyond.
        inv2 = 1.0 / (dr * dr)
        inv6 = inv2 * inv2 * inv2
        return jnp.where(dr < rc, 4.0 * (inv6 * inv6 - inv6), 0.0)

    fmt = getattr(md.partition.NeighborListFormat, fmt_name)
    neighbor_fn = md.partition.neighbor_list(displacement, box, rc, dr_threshold=skin,
                                             format=fmt)
    energy_fn = md.smap.pair_neighbor_list(lambda dr, **kw: lj(dr),
                                           md.space.metric(displacement))
    init_fn, apply_fn = md.simulate.nve(energy_fn, shift, dt)

    nbrs = neighbor_fn.allocate(positions)
    state = init_fn(random.PRNGKey(7), positions, kT=kT, neighbor=nbrs)

    def block(steps):
        @jax.jit
        def run(state, nbrs):
            def body(_, carry):
                st, nb = carry
                st = apply_fn(st, neighbor=nb)
                nb = nb.update(st.position)
                return st, nb
            return lax.fori_loop(0, steps, body, (state, nbrs))
        return run

    run = block(100)

    def advance(state, nbrs):
        while True:
            new_state, new_nbrs = run(state, nbrs)
            if not bool(new_nbrs.did_buffer_overflow):
                return new_state, new_nbrs
            nbrs = neighbor_fn.allocate(state.position)

    # Warm-up: compile, then settle the list capacity while the lattice melts.
    for _ in range(3):
        state, nbrs = advance(state, nbrs)
    state.position.block_until_ready()
    steps = 0
    start = time.perf_counter()
    while True:
        state, nbrs = advance(state, nbrs)
        steps += 100
        state.position.block_until_ready()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    ke = float(md.quantity.kinetic_energy(momentum=state.momentum, mass=state.mass))
    return {"code": "jax-md", "precision": precision, "format": fmt_name, "n": n,
            "steps": steps, "seconds": elapsed, "atom_steps_per_s": n * steps / elapsed,
            "temperature": 2.0 * ke / (3.0 * n), "jax": jax.__version__,
            "device": str(jax.devices()[0])}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", type=int, nargs="+", default=[40])
    p.add_argument("--precision", default="single,double")
    p.add_argument("--format", default="Dense", help="JAX-MD neighbour list format: Dense, "
                   "Sparse or OrderedSparse")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--out")
    p.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.one:
        # One measurement, its result as JSON on the last line (jax_enable_x64 is per process).
        print(json.dumps(measure(a.cells[0], a.precision, a.seconds, a.format)))
        return
    results = []
    for cells in a.cells:
        for precision in a.precision.split(","):
            cmd = [sys.executable, os.path.abspath(__file__), "--one", "--cells", str(cells),
                   "--precision", precision, "--format", a.format, "--seconds", str(a.seconds)]
            done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
            if done.returncode != 0:
                print("jax-md N=%d %s: failed (exit %d)" % (cells ** 3, precision,
                                                            done.returncode), flush=True)
                continue
            r = json.loads(done.stdout.strip().splitlines()[-1])
            print("jax-md %s N=%d %s: %.3e atom-steps/s (T %.3f)"
                  % (a.format, r["n"], precision, r["atom_steps_per_s"], r["temperature"]),
                  flush=True)
            results.append(r)
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"results": results}, f, indent=1)


if __name__ == "__main__":
    main()
