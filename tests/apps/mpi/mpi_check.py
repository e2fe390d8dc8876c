#!/usr/bin/env python3
"""md3d's and md2d's MPI domain decomposition against the serial run (the oracle: one process,
no ghosts, no migration, the minimum image), reading both runs' H5MD files with h5py. The app
is the one given: --md3d BIN or --md2d BIN (its files: md3d.h5 / md2d.h5, the configs' prefix).

    mpi_check.py compare --md3d BIN --mpirun MPIRUN --np P --config C --workdir D
                         [--grid X,Y,Z] [--set KEY=VALUE ...]
        P ranks and the serial run: the same particles (ids, species), positions (md3d:
        unwrapped, position + image * edge; md2d writes no images: wrapped positions compared
        through the minimum image on a periodic box), velocities and every thermo column at every
        frame and sample, to 1e-10 relative; and the serial trajectory crosses every face of the
        P-rank grid's
        sub-boxes in both directions, and takes some particle through an edge or corner (its
        sub-box differs from its first one along two or three axes), so migration and forwarded
        ghosts were exercised (--periodic-edges: and across every periodic box edge both ways).
        The P-rank file passes tests/apps/h5md_check.py.
    mpi_check.py overlap --md3d BIN ... --np P
        P ranks with domain.overlap on and off (md3d on a GPU backend: the interior's forces
        run while the halo refresh is in flight), frames holding the forces: the same bits in
        every frame and thermo sample, and the run with the overlap reports overlapped
        refreshes; and the run with the overlap against the serial run as compare does.
    mpi_check.py transport --md3d BIN ... --np P --set backend=cuda
        P ranks with domain.transport nccl (the halo refresh device to device) and host (staged
        through host memory), frames holding the forces (md3d): the same bits, the ranks report
        the NCCL refresh; and the NCCL run against the serial run as compare does. Skipped (77)
        where the ranks cannot have one GPU each or NCCL is missing.
    mpi_check.py restart ... --np P --np-restart Q
        P ranks to half the steps (checkpoint), then Q ranks from that checkpoint to the end:
        the same as the serial run through.
    mpi_check.py thin ... --np P --grid X,Y[,Z]
        a grid whose sub-boxes are thinner than r_cut + skin: exit status 1 and a config error
        naming domain.grid, on every rank, without a hang.
    mpi_check.py bad_grid ... --np P --grid X,Y[,Z]
        a grid that does not fit P ranks, written in the config: exit status 1 and a config
        error naming the file, the line, domain.grid and the rank count, without a hang.
    mpi_check.py abort ... --np P
        rank 0 alone fails (its output files exist from an earlier run, no --overwrite) while the
        other ranks go on: the job ends at once with status 1 and rank 0's message (MPI_Abort).

Exit status: 0 ok, 1 a check failed, 77 h5py/numpy or the backend of --set backend=...
missing (the caller skips).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover - depends on the machine
    print("skip: %s" % e)
    sys.exit(77)

TOL = 1e-10
TIMEOUT = 120  # seconds; a hung job fails the test instead of blocking ctest


def run(cmd, expect=0):
    print("$ " + " ".join(cmd), flush=True)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("timed out after %d s (a hang): %s" % (TIMEOUT, " ".join(cmd)))
    if expect is not None and p.returncode != expect:
        print(p.stdout)
        if "is not available" in p.stdout:  # --set backend=opencl on a machine without it
            print("skip: the backend is not available here")
            sys.exit(77)
        fail("exit status %d, expected %d" % (p.returncode, expect))
    return p


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def mpirun(args, np_):
    # --oversubscribe: the CI machine has 2 cores; one engine thread per rank (config threads).
    return [args.mpirun, "--oversubscribe", "-np", str(np_)]


def app_run(args, out, np_=None, extra=()):
    cmd = ([] if np_ is None else mpirun(args, np_)) + [args.bin, "run", args.config,
                                                         "--output", out, "--overwrite"]
    if args.grid and np_ is not None:
        cmd += ["--set", "domain.grid=[%s]" % args.grid]
    for kv in args.set:
        cmd += ["--set", kv]
    return cmd + list(extra)


def load(path):
    with h5py.File(path, "r") as f:
        p = f["particles/all"]
        edges = np.diag(p["box/edges/value"][0])
        pos = p["position/value"][()]
        # md2d writes no ids, images or species: particle k, unwrapped frame, one species.
        d = {
            "id": p["id"][()] if "id" in p else np.arange(pos.shape[1]),
            "step": p["position/step"][()],
            "pos": pos,
            "img": p["image/value"][()] if "image" in p else np.zeros(pos.shape),
            "vel": p["velocity/value"][()],
            "species": p["species/value"][()] if "species" in p else np.zeros(pos.shape[1]),
            "edges": edges,
            "boundary": [b.decode() if isinstance(b, bytes) else b
                         for b in p["box"].attrs["boundary"]],
            "obs": {k: f["observables"][k]["value"][()] for k in f["observables"]},
            "obs_step": f["observables/kinetic_energy/step"][()],
        }
    d["unwrapped"] = d["pos"] + d["img"] * d["edges"]
    d["periodic"] = np.array([b == "periodic" for b in d["boundary"]])
    return d


def min_image(d, ref):
    """Separations `d` (..., dim) through the minimum image along the periodic axes: a no-op for
    small ones, and for wrapped positions (md2d) a particle at 1e-12 and one at L - 1e-12 agree."""
    e = ref["edges"]
    return np.where(ref["periodic"], d - e * np.round(d / e), d)


def compare_runs(ref, got, label):
    if not np.array_equal(ref["step"], got["step"]):
        fail("%s: frame steps %s, serial %s" % (label, got["step"], ref["step"]))
    if not np.array_equal(ref["id"], got["id"]):
        fail("%s: particle ids differ" % label)
    if not np.array_equal(ref["species"], got["species"]):
        fail("%s: species by id differ" % label)
    scale = float(np.max(ref["edges"]))
    dpos = float(np.max(np.abs(min_image(got["unwrapped"] - ref["unwrapped"], ref))))
    if not dpos <= TOL * scale:
        fail("%s: positions differ by %.3g (box %.3g)" % (label, dpos, scale))
    vmax = float(np.max(np.abs(ref["vel"])))
    dvel = float(np.max(np.abs(got["vel"] - ref["vel"])))
    if not dvel <= TOL * vmax:
        fail("%s: velocities differ by %.3g (largest %.3g)" % (label, dvel, vmax))
    if not np.array_equal(ref["obs_step"], got["obs_step"]):
        fail("%s: thermo steps differ" % label)
    n = ref["pos"].shape[1]
    # Momenta are sums of +- terms near 0: relative to the sum of |m v| (bounded via KE).
    p_scale = np.sqrt(2.0 * np.max(ref["obs"]["kinetic_energy"]) * n)
    worst = 0.0
    for name, r in ref["obs"].items():
        g = got["obs"][name]
        s = p_scale if name.startswith("momentum") else np.maximum(np.abs(r), 1e-300)
        rel = float(np.max(np.abs(g - r) / s))
        worst = max(worst, rel)
        if not rel <= TOL:
            fail("%s: %s differs by %.3g relative" % (label, name, rel))
    print("%s: %d frames x %d particles; positions within %.2g, velocities %.2g, thermo %.2g "
          "relative" % (label, len(ref["step"]), n, dpos / scale, dvel / vmax, worst))


def dims_for(np_, grid, dim):
    if grid:
        return [int(v) for v in grid.split(",")]
    # MPI_Dims_create's choice for the rank counts the tests use (non-increasing factors).
    return {1: [1, 1, 1], 2: [2, 1, 1], 4: [2, 2, 1], 8: [2, 2, 2]}[np_][:dim]


def check_crossings(ref, dims, label, periodic_edges=False):
    """The serial trajectory moves particles across every face of the sub-box grid."""
    edges = ref["edges"]
    u = ref["unwrapped"]
    # Into the box along periodic axes; past a soft wall a particle stays in the outer sub-box.
    wrapped = np.where(ref["periodic"], np.mod(u, edges), u)
    coord = np.clip(np.floor(wrapped / (edges / dims)).astype(int), 0, np.array(dims) - 1)
    moved = min_image(np.diff(u, axis=0), ref)
    changed = np.diff(coord, axis=0) != 0
    faces = []
    for a in range(len(dims)):
        if dims[a] < 2:
            continue
        for sign, name in ((1, "+"), (-1, "-")):
            count = int(np.sum(changed[:, :, a] & (np.sign(moved[:, :, a]) == sign)))
            if count == 0:
                fail("%s: no particle crossed a sub-box face towards %s%s" % (label, name,
                                                                            "xyz"[a]))
            faces.append("%s%s %d" % (name, "xyz"[a], count))
    # Through an edge or corner: a particle whose sub-box, some frame, differs from its first
    # one along two or more axes (it migrated along both, and was a ghost across the edge).
    away = np.sum(coord != coord[0], axis=2)
    multi = int(np.sum(np.max(away, axis=0) >= 2))
    decomposed = sum(1 for d in dims if d > 1)
    if decomposed >= 2 and multi == 0:
        fail("%s: no particle went through a sub-box edge or corner" % label)
    if periodic_edges:
        # Wrapped positions (md2d): a step across the periodic edge jumps by about -+L.
        d = np.diff(ref["pos"], axis=0)
        for a in np.flatnonzero(ref["periodic"]):
            up = int(np.sum(d[:, :, a] < -edges[a] / 2))
            down = int(np.sum(d[:, :, a] > edges[a] / 2))
            if up == 0 or down == 0:
                fail("%s: the periodic edge of %s crossed %d times upwards, %d downwards"
                     % (label, "xyz"[a], up, down))
            faces.append("periodic %s +%d -%d" % ("xyz"[a], up, down))
    print("%s: grid %s, face crossings %s, particles through an edge or corner %d"
          % (label, dims, ", ".join(faces), multi))


def cmd_compare(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    run(app_run(args, os.path.join(wd, "serial")))
    p = run(app_run(args, os.path.join(wd, "np%d" % args.np), args.np))
    if args.np > 1 and "MPI ranks" not in p.stdout:
        print(p.stdout)
        fail("the run does not report its domain grid")
    for text in args.expect:
        if text not in p.stdout:
            print(p.stdout)
            fail("the run's header does not say %r" % text)
    ref = load(os.path.join(wd, "serial", args.app + ".h5"))
    path = os.path.join(wd, "np%d" % args.np, args.app + ".h5")
    got = load(path)
    dim = ref["pos"].shape[2]
    # The file rank 0 wrote from the gathered frames is valid H5MD on its own.
    h5md_check = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "h5md_check.py")
    run([sys.executable, h5md_check, path, "--n", str(ref["pos"].shape[1]), "--dim", str(dim),
         "--frames", str(len(ref["step"]))])
    compare_runs(ref, got, "%d ranks" % args.np)
    check_crossings(ref, dims_for(args.np, args.grid, dim), "serial trajectory",
                    args.periodic_edges)


def same_bits(path_a, path_b, label, need_forces=True):
    """Every dataset of two H5MD files (forces among them, unless not need_forces) bit for bit."""
    with h5py.File(path_a, "r") as a, h5py.File(path_b, "r") as b:
        names = []
        a.visit(lambda n: names.append(n) if isinstance(a[n], h5py.Dataset) else None)
        for n in names:
            if n.startswith("h5md") or n not in b:
                continue
            x, y = np.asarray(a[n][()]), np.asarray(b[n][()])
            # Bits for numbers (-0.0 against 0.0, NaN payloads), equality for strings.
            same = x.shape == y.shape and x.dtype == y.dtype and (
                np.array_equal(x, y) if x.dtype.kind in "OSU"
                else np.array_equal(x.view(np.uint8), y.view(np.uint8)))
            if not same:
                fail("%s: %s differs" % (label, n))
        if need_forces and "particles/all/force/value" not in names:
            fail("the frames hold no forces")
    print("%s: %d datasets, the same bits" % (label, len(names)))


def cmd_overlap(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    force = ["--set", "output.force=true"]
    runs = {}
    for on in ("true", "false"):
        out = os.path.join(wd, "overlap_" + on)
        p = run(app_run(args, out, args.np, force + ["--set", "domain.overlap=" + on]))
        runs[on] = out
        if on == "true":
            # Rank 0 prints every rank's "overlap (N refreshes, P % of the owned interior".
            found = re.findall(r"overlap \((\d+) refreshes, (\d+) % of the owned interior",
                               p.stdout)
            if len(found) != args.np or min(int(n) for n, _ in found) == 0:
                print(p.stdout)
                fail("not every rank reports overlapped halo refreshes")
            print("overlapped refreshes and interior %% per rank: %s" % found)
    same_bits(os.path.join(runs["true"], args.app + ".h5"),
              os.path.join(runs["false"], args.app + ".h5"), "with and without the overlap")
    run(app_run(args, os.path.join(wd, "serial"), extra=force))
    compare_runs(load(os.path.join(wd, "serial", args.app + ".h5")),
                 load(os.path.join(runs["true"], args.app + ".h5")),
                 "%d ranks with the overlap" % args.np)


def cmd_transport(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    # md2d writes no forces; its positions and velocities carry them.
    force = ["--set", "output.force=true"] if args.app == "md3d" else []
    runs = {}
    for t in ("nccl", "host"):
        out = os.path.join(wd, "transport_" + t)
        p = run(app_run(args, out, args.np, force + ["--set", "domain.transport=" + t]),
                expect=None)
        if p.returncode != 0:
            print(p.stdout)
            for reason in ("is not available", "two ranks share the GPU",
                           "cannot open NCCL's library"):
                if reason in p.stdout:
                    print("skip: %s (this machine cannot run NCCL between the ranks)" % reason)
                    sys.exit(77)
            fail("exit status %d" % p.returncode)
        runs[t] = out
        if t == "nccl" and ("device to device, NCCL" not in p.stdout or
                            "via the host" in p.stdout):
            print(p.stdout)
            fail("not every rank reports its halo refresh through NCCL")
    same_bits(os.path.join(runs["nccl"], args.app + ".h5"),
              os.path.join(runs["host"], args.app + ".h5"), "NCCL against staging via the host",
              need_forces=args.app == "md3d")
    run(app_run(args, os.path.join(wd, "serial"), extra=force))
    compare_runs(load(os.path.join(wd, "serial", args.app + ".h5")),
                 load(os.path.join(runs["nccl"], args.app + ".h5")),
                 "%d ranks through NCCL" % args.np)


def cmd_restart(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    serial, split = os.path.join(wd, "serial"), os.path.join(wd, "split")
    run(app_run(args, serial))
    with open(args.config) as f:
        steps = int([l for l in f if l.strip().startswith("steps:")][0].split(":")[1])
    run(app_run(args, split, args.np, ["--steps", str(steps // 2)]))
    ck = os.path.join(split, args.app + "_checkpoint.h5")
    cmd = mpirun(args, args.np_restart) + [args.bin, "run", args.config, "--output", split,
                                           "--restart", ck]
    for kv in args.set:
        cmd += ["--set", kv]
    run(cmd)
    compare_runs(load(os.path.join(serial, args.app + ".h5")),
                 load(os.path.join(split, args.app + ".h5")),
                 "%d ranks to step %d, then %d ranks" % (args.np, steps // 2, args.np_restart))


def cmd_thin(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    p = run(app_run(args, os.path.join(wd, "thin"), args.np), expect=1)
    if "domain.grid" not in p.stdout or "thinner" not in p.stdout:
        print(p.stdout)
        fail("the error does not name domain.grid and the interaction range")
    print("refused: " + [l for l in p.stdout.splitlines() if "domain.grid" in l][0])


def cmd_bad_grid(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    # The grid written in a copy of the config, so the error can name its line.
    config = os.path.join(wd, "bad_grid.yaml")
    with open(args.config) as f:
        text = f.read().rstrip("\n") + "\n"
    line = text.count("\n") + 2
    with open(config, "w") as f:
        f.write(text + "domain:\n  grid: [%s]\n" % args.grid)
    cmd = mpirun(args, args.np) + [args.bin, "run", config, "--output", os.path.join(wd, "out"),
                                   "--overwrite"]
    p = run(cmd, expect=1)
    where = "%s:%d:" % (config, line)
    if where not in p.stdout or "domain.grid" not in p.stdout or \
            "does not fit %d ranks" % args.np not in p.stdout:
        print(p.stdout)
        fail("the error does not name %s, domain.grid and the rank count" % where)
    print("refused: " + [l for l in p.stdout.splitlines() if "domain.grid" in l][0])


def cmd_abort(args):
    wd = args.workdir
    shutil.rmtree(wd, ignore_errors=True)
    out = os.path.join(wd, "abort")
    run(app_run(args, out, args.np))
    cmd = mpirun(args, args.np) + [args.bin, "run", args.config, "--output", out]
    p = run(cmd, expect=None)
    if p.returncode == 0:
        fail("a run over existing files succeeded")
    if args.app + ".h5" not in p.stdout and args.app + "_thermo.csv" not in p.stdout:
        print(p.stdout)
        fail("rank 0's message about the existing files is missing")
    print("aborted with status %d: %s" % (p.returncode,
                                          [l for l in p.stdout.splitlines() if "error" in l][0]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command",
                    choices=["compare", "overlap", "transport", "restart", "thin", "bad_grid",
                             "abort"])
    app = ap.add_mutually_exclusive_group(required=True)
    app.add_argument("--md3d", help="the md3d driver")
    app.add_argument("--md2d", help="the md2d driver")
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--np-restart", type=int, default=1)
    ap.add_argument("--config", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--grid", default="")
    ap.add_argument("--periodic-edges", action="store_true",
                    help="compare: also require crossings of every periodic box edge both ways "
                         "(wrapped positions: md2d)")
    ap.add_argument("--set", action="append", default=[],
                    help="key=value over the config, for both runs (APP run --set)")
    ap.add_argument("--expect", action="append", default=[],
                    help="compare: text the run on several ranks must print (the path taken)")
    args = ap.parse_args()
    args.app, args.bin = ("md3d", args.md3d) if args.md3d else ("md2d", args.md2d)
    {"compare": cmd_compare, "overlap": cmd_overlap, "transport": cmd_transport, "restart": cmd_restart, "thin": cmd_thin, "bad_grid": cmd_bad_grid,
     "abort": cmd_abort}[args.command](args)


if __name__ == "__main__":
    main()
