#!/usr/bin/env python3
"""Opens an md3d run's files with ParaView and with OVITO, checks what each tool read against the
H5MD file, and renders the last frame of each to PNG: the by-hand check that both tools open them
(validation/README.md, "render_outputs.py").

    pvpython validation/render_outputs.py paraview DIR PREFIX OUT.png    # .pvd + box, .xdmf
    python3 validation/render_outputs.py ovito DIR PREFIX OUT.png        # .pvd, .gsd, .lammpstrj

DIR/PREFIX are a run's output folder and prefix: a run with output.vtk and output.xdmf on, and for
OVITO `smelt convert DIR/PREFIX.h5 DIR/PREFIX.gsd` and `... DIR/PREFIX.lammpstrj`. The pictures:

    paraview: OUT.png (the .pvd's last frame coloured by type, with PREFIX_box.vtp),
              OUT_xdmf.png (the XDMF sidecar's last frame, read through "XDMF Reader")
    ovito:    OUT_pvd.png, OUT_gsd.png, OUT_dump.png (the last frame of each, by particle type)

Each file's last frame is compared with the H5MD file's (positions per id, modulo the box; the
type of every particle): the H5MD file is read with `$SMELT_H5_PYTHON` (default /usr/bin/python3,
which has h5py), since OVITO's NumPy 2 and Debian's h5py do not load together. Prints one line per
file and a PASS or FAIL line; exit 1 on a mismatch, 2 when a file or a tool is missing.
"""

import json
import os
import subprocess
import sys

import numpy as np

# Positions in the VTK and LAMMPS files are written with 17 significant digits and GSD's in
# float32 (HOOMD's format): a float32 rounding of a coordinate up to ~20 sigma is below 2e-6.
TOLERANCE = {"pvd": 1e-9, "xdmf": 1e-12, "lammpstrj": 1e-9, "gsd": 5e-6}

READ_H5MD = r"""
import json, sys
import h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
p = f["particles/all"]
e = p["box/edges/value"][-1]
edges = np.diag(e) if e.ndim == 2 else e
species = p["species/value"][-1] if "species" in p else np.zeros(p["position/value"].shape[1], int)
json.dump({"step": int(p["position/step"][-1]), "time": float(p["position/time"][-1]),
           "edges": edges.tolist(), "position": p["position/value"][-1].tolist(),
           "id": p["id"][()].tolist(), "species": species.tolist()}, sys.stdout)
"""


def reference(h5):
    """The H5MD file's last frame: positions and species indexed by id, the box edges."""
    python = os.environ.get("SMELT_H5_PYTHON", "/usr/bin/python3")
    out = subprocess.run([python, "-c", READ_H5MD, h5], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("cannot read %s with %s: %s" % (h5, python, out.stderr.strip()))
    ref = json.loads(out.stdout)
    ids = np.asarray(ref["id"])
    order = np.argsort(ids)
    return {"step": ref["step"], "time": ref["time"], "edges": np.asarray(ref["edges"]),
            "id": ids[order], "position": np.asarray(ref["position"])[order],
            "species": np.asarray(ref["species"])[order]}


def compare(label, ref, ids, position, species, shift=0.0):
    """Max position difference modulo the box (after adding shift) and type mismatches, by id.
    Returns True when both are within TOLERANCE[label] (types: exact)."""
    order = np.argsort(ids)
    if not np.array_equal(np.asarray(ids)[order], ref["id"]):
        print("%s: FAIL: ids differ from the H5MD file's" % label)
        return False
    d = np.asarray(position, dtype=float)[order] + shift - ref["position"]
    d -= ref["edges"] * np.round(d / ref["edges"])
    dmax = float(np.max(np.abs(d)))
    wrong_types = int(np.count_nonzero(np.asarray(species)[order] != ref["species"]))
    ok = dmax <= TOLERANCE[label] and wrong_types == 0
    print("%s: %s: max |position - H5MD| %.3g (tolerance %g), %d of %d types differ"
          % (label, "ok" if ok else "FAIL", dmax, TOLERANCE[label], wrong_types, len(ids)))
    return ok


def need(path):
    if not os.path.exists(path):
        print("missing %s (see this script's docstring for how to write it)" % path)
        sys.exit(2)
    return path


# ---- ParaView (pvpython) -----------------------------------------------------------------------


def paraview(directory, prefix, out):
    from paraview import simple as pv
    from paraview import servermanager as sm
    from vtkmodules.util.numpy_support import vtk_to_numpy

    base = os.path.join(directory, prefix)
    ref = reference(need(base + ".h5"))
    ok = True

    def last_frame(reader, times):
        reader.UpdatePipeline(times[-1])
        data = sm.Fetch(reader)
        if data.IsA("vtkMultiBlockDataSet"):  # the XDMF reader's collection: one block
            data = data.GetBlock(0)
        pts = vtk_to_numpy(data.GetPoints().GetData())
        arrays = {data.GetPointData().GetArrayName(i): vtk_to_numpy(data.GetPointData().GetArray(i))
                  for i in range(data.GetPointData().GetNumberOfArrays())}
        return pts, arrays

    def render(source, color_by, png, box=None):
        view = pv.CreateView("RenderView")
        view.ViewSize = [800, 800]
        view.OrientationAxesVisibility = 0
        shown = pv.Show(source, view)
        shown.SetRepresentationType("Points")
        shown.RenderPointsAsSpheres = 1
        shown.PointSize = 9
        pv.ColorBy(shown, ("POINTS", color_by))
        shown.RescaleTransferFunctionToDataRange(True)
        if box is not None:
            pv.Show(box, view).AmbientColor = [1, 1, 1]
        view.CameraPosition = [-1.2, -1.6, 1.4]
        view.CameraFocalPoint = [0, 0, 0]
        view.CameraViewUp = [0, 0, 1]
        view.ResetCamera()
        pv.SaveScreenshot(png, view, ImageResolution=[800, 800])
        print("wrote %s" % png)
        views.append(view)

    views = []
    # The .pvd collection and the box outline beside it.
    pvd = pv.PVDReader(FileName=need(base + ".pvd"))
    times = pvd.TimestepValues
    pts, arrays = last_frame(pvd, times)
    print("pvd: %d frames (times %s ... %s), %d points, point data %s"
          % (len(times), times[0], times[-1], len(pts), sorted(arrays)))
    ok &= abs(times[-1] - ref["time"]) < 1e-12
    ok &= compare("pvd", ref, arrays["id"], pts, arrays["type"])
    box = pv.XMLPolyDataReader(FileName=[need(base + "_box.vtp")])
    box.UpdatePipeline()
    bounds = box.GetDataInformation().GetBounds()
    box_ok = np.allclose([bounds[1] - bounds[0], bounds[3] - bounds[2], bounds[5] - bounds[4]],
                         ref["edges"])
    print("box: %s: bounds %s" % ("ok" if box_ok else "FAIL", bounds))
    ok &= box_ok
    scene = pv.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = times[-1]
    render(pvd, "type", out, box)

    # The XDMF sidecar, read in place from the .h5 by ParaView's "XDMF Reader" (VTK's Xdmf2
    # reader). ParaView's Xdmf3 readers give zero points on its HyperSlab items (validation/
    # README.md, render_outputs.py).
    xdmf = base + ".xdmf"
    if os.path.exists(xdmf):
        reader = pv.XDMFReader(FileNames=[xdmf])
        reader.PointArrayStatus = reader.GetProperty("PointArrayInfo")[::2]
        times = reader.TimestepValues
        pts, arrays = last_frame(reader, times)
        print("xdmf: %d frames (times %s ... %s), %d points, point data %s"
              % (len(times), times[0], times[-1], len(pts), sorted(arrays)))
        ok &= abs(times[-1] - ref["time"]) < 1e-12
        ok &= compare("xdmf", ref, ref["id"], pts, arrays["species"])  # rows in id order
        scene.UpdateAnimationUsingDataTimeSteps()
        scene.AnimationTime = times[-1]
        render(reader, "species", out.replace(".png", "_xdmf.png"))
    else:
        print("no %s (run with output.xdmf: true), skipped" % xdmf)
    # Closing the views here, not at interpreter exit: pvpython's exit handlers otherwise end
    # with an X error (GLXBadContext) and exit status 1 on Xvfb.
    for view in views:
        pv.Delete(view)
    return ok


# ---- OVITO (pip install ovito) -----------------------------------------------------------------


def types_from_material(frame, data):
    """An OVITO modifier: "Particle Type" = "Material Type", with one named type per value."""
    material = np.asarray(data.particles["Material Type"])
    ptypes = data.particles_.create_property("Particle Type", data=material)
    for t in np.unique(material):
        ptypes.add_type_id(int(t), data.particles_)
        ptypes.type_by_id_(int(t)).name = "type %d" % t


def ovito(directory, prefix, out):
    from ovito.io import import_file
    from ovito.vis import TachyonRenderer, Viewport

    base = os.path.join(directory, prefix)
    ref = reference(need(base + ".h5"))
    ok = True
    # (file extension, picture suffix)
    cases = (("pvd", "_pvd.png"), ("gsd", "_gsd.png"), ("lammpstrj", "_dump.png"))
    for ext, suffix in cases:
        path = base + "." + ext
        if not os.path.exists(path):
            print("%s: missing %s, skipped (smelt convert %s.h5 %s)" % (ext, path, base, path))
            ok = False
            continue
        # multiple_frames: OVITO reads only the first frame of a one-file trajectory without it.
        pipeline = import_file(path, **({} if ext == "pvd" else {"multiple_frames": True}))
        if ext == "pvd":
            # OVITO's VTP reader (made for Aspherix files) maps a point array `type` to the
            # property "Material Type" and only `shapetype` to "Particle Type": copy it across so
            # the particles are coloured and counted by type as in the other two formats.
            pipeline.modifiers.append(types_from_material)
        frames = pipeline.source.num_frames
        data = pipeline.compute(frames - 1)
        p = data.particles
        ptypes = p["Particle Type"]
        names = [t.name or str(t.id) for t in ptypes.types] if ptypes.types else []
        print("%s: %d frames, %d particles, properties %s, types %s, counts %s"
              % (ext, frames, p.count, list(p.keys()), names,
                 np.bincount(np.asarray(ptypes)).tolist()))
        # Type ids: VTK writes the species index (0-based), GSD its typeid (0-based), LAMMPS
        # the type number (1-based).
        species = np.asarray(ptypes) - (1 if ext == "lammpstrj" else 0)
        # GSD stores no ids: its particles are in the H5MD file's order, whose ids are 0..N-1.
        ids = np.arange(p.count) if ext == "gsd" else np.asarray(p["Particle Identifier"])
        if ext == "lammpstrj":
            ids = ids - 1  # LAMMPS atom ids start at 1
        # GSD's box is centred on the origin (smelt convert shifts positions by -L/2).
        shift = 0.5 * ref["edges"] if ext == "gsd" else 0.0
        ok &= compare(ext, ref, ids, np.asarray(p.positions), species, shift)
        pipeline.add_to_scene()
        vp = Viewport(type=Viewport.Type.Perspective, camera_dir=(1.2, 1.6, -1.4))
        vp.zoom_all(size=(800, 800))
        png = out.replace(".png", suffix)
        vp.render_image(filename=png, size=(800, 800), frame=frames - 1,
                        renderer=TachyonRenderer(ambient_occlusion=False))
        print("wrote %s" % png)
        pipeline.remove_from_scene()
    return ok


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("paraview", "ovito"):
        print(__doc__, file=sys.stderr)
        return 2
    ok = (paraview if sys.argv[1] == "paraview" else ovito)(*sys.argv[2:])
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
