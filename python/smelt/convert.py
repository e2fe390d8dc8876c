#!/usr/bin/env python3
"""Converts an H5MD file of a Smelt app (md2d, md3d, vortex) to the formats of its peers.

    smelt convert INPUT.h5 OUTPUT [--format F] [--frame K]
    (or: python3 smelt_convert.py INPUT.h5 OUTPUT ...)

Formats (from OUTPUT's extension unless --format is given):
  gsd           .gsd        HOOMD-blue's format, through the `gsd` Python package: every frame
                            (or frame K): box, positions (shifted to HOOMD's box centred on the
                            origin), velocities, images, type ids and names, masses, step. A
                            HOOMD simulation starts from it (Simulation.create_state_from_gsd)
                            and OVITO opens it.
  lammps-data   .data .lmp  a LAMMPS data file (atom_style atomic) of one frame (K, default the
                            last): box, Masses, Atoms with image flags, Velocities. LAMMPS starts
                            from it with read_data.
  lammps-dump   .lammpstrj .dump
                            a LAMMPS text dump of every frame (or frame K): id type x y z
                            vx vy vz ix iy iz; OVITO, VMD and MDAnalysis read it.

Type names and masses come from --types / --masses, else from the run's config stored in the
file (/parameters@config_yaml: md3d's system.types and system.masses; the stored text is the
config file's, without its command-line --set overrides), else types are named by their index
and masses are 1. Non-periodic axes (md3d's walls) become periodic box edges in GSD (HOOMD boxes are periodic)
and need `boundary ... f` in the LAMMPS input script.

Needs h5py and NumPy; gsd only for .gsd output, PyYAML only for names and masses from the
stored config. They are imported only once the arguments are known to be right. Exit status:
0 done, 1 error (a missing package, named; a file that is not H5MD), 2 usage error.
"""

import os
import sys

# Run as a script, this file's folder heads sys.path, and in the source tree (python/smelt/)
# its types.py, array.py and profile.py would shadow the standard library's modules of those
# names: argparse imports `types` (wherever the interpreter has not imported it already, as
# `python -S` has not) and got smelt's, which needs NumPy. Search the standard places only.
if __name__ == "__main__" and sys.path and sys.path[0] and \
        os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import argparse  # noqa: E402 (after the search path is fixed)

FORMATS = {".gsd": "gsd", ".data": "lammps-data", ".lmp": "lammps-data",
           ".lammpstrj": "lammps-dump", ".dump": "lammps-dump"}


class ConvertError(Exception):
    pass


def require(module, needed_for, debian):
    """Imports `module`, or raises a ConvertError naming it and how to install it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as e:
        why = "" if "No module named" in str(e) else " (%s)" % e  # a broken install
        raise ConvertError("the Python module '%s' is not installed for %s%s (%s needs it); "
                           "install it (pip install %s, or Debian's %s) or point SMELT_PYTHON "
                           "at an interpreter that has it"
                           % (module, sys.executable, why, needed_for, module.split(".")[0],
                              debian))


def as_str(v):
    return v.decode() if isinstance(v, bytes) else str(v)


class H5mdRun:
    """The frames of /particles/all of an H5MD file, read with h5py."""

    def __init__(self, path):
        require("numpy", "reading H5MD", "python3-numpy")
        h5py = require("h5py", "reading H5MD", "python3-h5py")
        try:
            self.file = h5py.File(path, "r")
        except OSError as e:
            raise ConvertError("%s: cannot open it as an HDF5 file (%s)" % (path, e))
        f = self.file
        if "particles/all/position/value" not in f or "particles/all/box" not in f:
            raise ConvertError("%s: not an H5MD file with /particles/all/position" % path)
        self.path = path
        self.group = f["particles/all"]
        box = self.group["box"]
        self.dim = int(box.attrs["dimension"])
        self.boundary = [as_str(b) for b in box.attrs["boundary"]]
        self.positions = self.group["position/value"]
        self.frames, self.n = self.positions.shape[0], self.positions.shape[1]
        self.steps = self.group["position/step"][()]
        self.times = self.group["position/time"][()]
        edges = box["edges"]
        self.edges = edges["value"][()] if "value" in edges else None
        self.fixed_edges = edges[()] if self.edges is None else None
        self.config = self._config()
        self.names_override = None
        self.masses_override = None

    def _config(self):
        text = self.file["parameters"].attrs.get("config_yaml", "") if "parameters" in self.file \
            else ""
        try:
            import yaml
            return yaml.safe_load(as_str(text)) or {}
        except Exception:  # no PyYAML, or not YAML: names and masses fall back
            return {}

    def frame_indices(self, frame):
        if frame is None:
            return list(range(self.frames))
        k = frame + self.frames if frame < 0 else frame
        if not 0 <= k < self.frames:
            raise ConvertError("%s: frame %d does not exist (the file has %d frames)"
                               % (self.path, frame, self.frames))
        return [k]

    def box(self, k):
        import numpy as np
        e = np.asarray(self.edges[k] if self.edges is not None else self.fixed_edges, dtype=float)
        # Edges as a vector (a rectangular box), or as the matrix of the edge vectors (Smelt
        # writes a diagonal one, which MDAnalysis reads); a tilted box is not supported.
        if e.ndim == 2:
            if np.count_nonzero(e - np.diag(np.diag(e))):
                raise ConvertError("%s: a triclinic box is not supported" % self.path)
            e = np.diag(e)
        return e

    def field(self, name, k, default=None):
        """Row k of /particles/all/<name> (at position's step), or `default`."""
        import numpy as np
        if name not in self.group or "value" not in self.group[name]:
            return default
        el = self.group[name]
        steps = el["step"][()]
        rows = np.nonzero(steps == self.steps[k])[0]
        if len(rows) == 0:
            return default
        return el["value"][rows[0]]

    def species(self, k):
        import numpy as np
        s = self.field("species", k)
        if s is None and "species" in self.group and not hasattr(self.group["species"], "keys"):
            s = self.group["species"][()]
        return np.zeros(self.n, dtype=np.int64) if s is None else np.asarray(s, dtype=np.int64)

    def type_names(self, ntypes):
        names = self.names_override or (self.config.get("system") or {}).get("types")
        if isinstance(names, list) and len(names) >= ntypes:
            return [str(t) for t in names]
        return [str(t) for t in range(ntypes)]

    def masses(self, ntypes):
        m = self.masses_override or (self.config.get("system") or {}).get("masses")
        if isinstance(m, list) and len(m) >= ntypes:
            return [float(v) for v in m]
        return [1.0] * ntypes


def padded(values, n, dim):
    """[n, dim] (or None) as [n, 3] doubles with zeros beyond dim."""
    import numpy as np
    out = np.zeros((n, 3))
    if values is not None:
        out[:, :dim] = np.asarray(values, dtype=float).reshape(n, dim)
    return out


def write_gsd(run, out, frames):
    gsd_hoomd = require("gsd.hoomd", "GSD output", "python3-gsd")
    import numpy as np
    Frame = getattr(gsd_hoomd, "Frame", None) or gsd_hoomd.Snapshot
    ntypes = max(int(run.species(k).max()) + 1 for k in frames)
    try:
        traj = gsd_hoomd.open(out, mode="w")
    except ValueError:  # gsd < 3 names the modes with a b
        traj = gsd_hoomd.open(out, mode="wb")
    with traj:
        for k in frames:
            f = Frame()
            L = padded(run.box(k)[None, :], 1, run.dim)[0]
            if run.dim == 2:
                L[2] = 0.0  # HOOMD's 2D boxes have Lz = 0
            f.configuration.step = int(run.steps[k])
            f.configuration.dimensions = 3 if run.dim == 3 else 2
            f.configuration.box = [L[0], L[1], L[2], 0.0, 0.0, 0.0]
            f.particles.N = run.n
            # HOOMD's box is [-L/2, L/2) per axis; Smelt's is [0, L).
            pos = padded(run.positions[k], run.n, run.dim) - 0.5 * L
            f.particles.position = pos.astype(np.float32)
            f.particles.velocity = padded(run.field("velocity", k), run.n,
                                          run.dim).astype(np.float32)
            image = run.field("image", k)
            if image is not None:
                f.particles.image = padded(image, run.n, run.dim).astype(np.int32)
            species = run.species(k)
            f.particles.typeid = species.astype(np.uint32)
            f.particles.types = run.type_names(ntypes)[:ntypes]
            f.particles.mass = np.asarray(run.masses(ntypes), dtype=np.float32)[species]
            traj.append(f)


def lammps_bounds(run, k, dump=False):
    """Box bounds; a 2D box gets a unit z extent around z = 0 (LAMMPS' 2D rule for data files),
    [0, 1] in dumps, whose readers (MDAnalysis) move the box corner to the origin."""
    L = padded(run.box(k)[None, :], 1, run.dim)[0]
    if run.dim == 2:
        return [(0.0, L[0]), (0.0, L[1]), (0.0, 1.0) if dump else (-0.5, 0.5)]
    return [(0.0, L[a]) for a in range(3)]


def write_lammps_data(run, out, k):
    species = run.species(k)
    ntypes = int(species.max()) + 1
    names = run.type_names(ntypes)
    pos = padded(run.positions[k], run.n, run.dim)
    vel = padded(run.field("velocity", k), run.n, run.dim)
    image = padded(run.field("image", k), run.n, run.dim).astype(int)
    with open(out, "w") as f:
        f.write("LAMMPS data file from %s, frame %d (step %d, time %.17g), by smelt convert%s\n\n"
                % (os.path.basename(run.path), k, run.steps[k], run.times[k],
                   "; 2D: use `dimension 2`" if run.dim == 2 else ""))
        f.write("%d atoms\n%d atom types\n\n" % (run.n, ntypes))
        for (lo, hi), ax in zip(lammps_bounds(run, k), "xyz"):
            f.write("%.17g %.17g %slo %shi\n" % (lo, hi, ax, ax))
        f.write("\nMasses\n\n")
        for t, m in enumerate(run.masses(ntypes)[:ntypes]):
            f.write("%d %.17g  # %s\n" % (t + 1, m, names[t]))
        f.write("\nAtoms  # atomic\n\n")
        for i in range(run.n):
            f.write("%d %d %.17g %.17g %.17g %d %d %d\n"
                    % (i + 1, species[i] + 1, pos[i, 0], pos[i, 1], pos[i, 2],
                       image[i, 0], image[i, 1], image[i, 2]))
        f.write("\nVelocities\n\n")
        for i in range(run.n):
            f.write("%d %.17g %.17g %.17g\n" % (i + 1, vel[i, 0], vel[i, 1], vel[i, 2]))


def write_lammps_dump(run, out, frames):
    with open(out, "w") as f:
        for k in frames:
            species = run.species(k)
            pos = padded(run.positions[k], run.n, run.dim)
            vel = padded(run.field("velocity", k), run.n, run.dim)
            image = padded(run.field("image", k), run.n, run.dim).astype(int)
            flags = " ".join("pp" if (a >= run.dim or run.boundary[a] == "periodic") else "ff"
                             for a in range(3))
            f.write("ITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n%d\nITEM: BOX BOUNDS %s\n"
                    % (run.steps[k], run.n, flags))
            for lo, hi in lammps_bounds(run, k, dump=True):
                f.write("%.17g %.17g\n" % (lo, hi))
            f.write("ITEM: ATOMS id type x y z vx vy vz ix iy iz\n")
            for i in range(run.n):
                f.write("%d %d %.17g %.17g %.17g %.17g %.17g %.17g %d %d %d\n"
                        % (i + 1, species[i] + 1, pos[i, 0], pos[i, 1], pos[i, 2],
                           vel[i, 0], vel[i, 1], vel[i, 2], image[i, 0], image[i, 1],
                           image[i, 2]))


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="smelt convert",
        description="Convert a Smelt H5MD file to GSD (HOOMD-blue), a LAMMPS data file or a "
                    "LAMMPS dump.")
    p.add_argument("input", help="H5MD file of an md2d, md3d or vortex run")
    p.add_argument("output", help="the file to write (.gsd, .data, .lammpstrj)")
    p.add_argument("--format", choices=sorted(set(FORMATS.values())),
                   help="default: from OUTPUT's extension")
    p.add_argument("--frame", type=int, default=None,
                   help="one frame (negative: from the end); default: every frame "
                        "(the last one for lammps-data)")
    p.add_argument("--types", help="type names in type-index order, comma-separated (A,B)")
    p.add_argument("--masses", help="masses per type, comma-separated (1.0,2.0)")
    a = p.parse_args(argv)
    fmt = a.format or FORMATS.get(os.path.splitext(a.output)[1].lower())
    if fmt is None:
        p.error("cannot tell the format from '%s': give --format" % a.output)
    try:
        run = H5mdRun(a.input)
        if a.types:
            run.names_override = a.types.split(",")
        if a.masses:
            try:
                run.masses_override = [float(m) for m in a.masses.split(",")]
            except ValueError:
                p.error("--masses needs numbers: %s" % a.masses)
        if fmt == "gsd":
            write_gsd(run, a.output, run.frame_indices(a.frame))
        elif fmt == "lammps-data":
            write_lammps_data(run, a.output, run.frame_indices(-1 if a.frame is None
                                                               else a.frame)[0])
        else:
            write_lammps_dump(run, a.output, run.frame_indices(a.frame))
    except ConvertError as e:
        print("smelt convert: error: %s" % e, file=sys.stderr)
        return 1
    print("wrote %s (%s)" % (a.output, fmt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
