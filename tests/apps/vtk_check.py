#!/usr/bin/env python3
"""The VTK files of a run, read the way OVITO's VTP reader reads them, against the H5MD file.

    vtk_check.py DIR PREFIX H5MD_FILE

OVITO parses .vtp files with an XML stream reader, accepts DataArrays only in the "ascii" or
"binary" format (base64 inside the element, header and data one stream), no compressor, and one
vertex per point; it reads every DataSet of a .pvd as one frame. This script parses with
Python's strict XML parser (raw appended data would fail it), decodes the base64 arrays itself
and compares them with the H5MD datasets (h5py): positions, velocities, ids, types (species),
per-particle energies; the .pvd's timesteps against H5MD's times. OVITO recognises a .vtp (also
inside a .pvd) only when <Piece> is the first element inside <PolyData>: no <FieldData>. The box
outline
(<prefix>_box.vtp) holds the box's corners and edges as lines.

Exit status: 0 ok, 1 a check failed, 77 h5py or NumPy is not installed (the caller skips).
"""

import base64
import os
import sys
import xml.etree.ElementTree as ET

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover - depends on the machine
    print("skip: %s" % e)
    sys.exit(77)

TYPES = {"Float64": "<f8", "Float32": "<f4", "Int64": "<i8", "Int32": "<i4", "UInt64": "<u8",
         "UInt32": "<u4", "UInt8": "<u1"}
errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def decode(array, path, header_bytes):
    """A <DataArray> as OVITO decodes it: [tuples, components]."""
    fmt = array.get("format")
    name = array.get("Name")
    check(fmt in ("binary", "ascii"), "%s: %s has format %r" % (path, name, fmt))
    comps = int(array.get("NumberOfComponents", "1"))
    dtype = np.dtype(TYPES[array.get("type")])
    if fmt == "ascii":
        return np.array(array.text.split(), dtype=dtype).reshape(-1, comps)
    raw = base64.b64decode("".join(array.text.split()))
    size = int(np.frombuffer(raw[:header_bytes], dtype="<u8" if header_bytes == 8 else "<u4")[0])
    check(size + header_bytes == len(raw), "%s: %s: header says %d bytes, %d there"
          % (path, name, size, len(raw) - header_bytes))
    return np.frombuffer(raw[header_bytes:], dtype=dtype).reshape(-1, comps)


def read_vtp(path):
    root = ET.parse(path).getroot()  # a strict XML parse, as OVITO's QXmlStreamReader
    check(root.get("type") == "PolyData", path + ": not PolyData")
    check(root.get("byte_order") == "LittleEndian", path + ": not little-endian")
    check(root.get("compressor") is None, path + ": compressed (OVITO refuses it)")
    header_bytes = 8 if root.get("header_type", "UInt32") == "UInt64" else 4
    check(root.find(".//AppendedData") is None, path + ": appended data (OVITO refuses it)")
    check([c.tag for c in root.find("PolyData")][:1] == ["Piece"],
          path + ": <Piece> is not the first element of <PolyData> (OVITO's detection fails)")
    piece = root.find("PolyData/Piece")
    out = {"points": int(piece.get("NumberOfPoints")), "verts": int(piece.get("NumberOfVerts")),
           "lines": int(piece.get("NumberOfLines", "0")), "point": {}, "field": {}}
    out["Points"] = decode(piece.find("Points/DataArray"), path, header_bytes)
    for a in piece.findall("PointData/DataArray"):
        out["point"][a.get("Name")] = decode(a, path, header_bytes)
    for a in root.findall("PolyData/FieldData/DataArray"):
        out["field"][a.get("Name")] = decode(a, path, header_bytes)
    return out


def main():
    directory, prefix, h5 = sys.argv[1:4]
    with h5py.File(h5, "r") as f:
        p = f["particles/all"]
        ref = {k: p[k + "/value"][()] for k in p if isinstance(p[k], h5py.Group) and k != "box"}
        steps, times = p["position/step"][()], p["position/time"][()]
        edges = np.diag(p["box/edges/value"][-1])
        dim = int(p["box"].attrs["dimension"])
    pvd = ET.parse(os.path.join(directory, prefix + ".pvd")).getroot()
    entries = pvd.findall("Collection/DataSet")
    check(len(entries) == len(steps), "the .pvd lists %d frames, H5MD has %d"
          % (len(entries), len(steps)))
    for k, e in enumerate(entries):
        check(e.get("part") == "0", "a .pvd entry of part %r (OVITO reads each as a frame)"
              % e.get("part"))
        path = os.path.join(directory, e.get("file"))
        v = read_vtp(path)
        n = v["points"]
        check(v["verts"] == n and v["lines"] == 0, path + ": not one vertex per point")
        pts = v["Points"]
        check(np.array_equal(pts[:, :dim], ref["position"][k]), path + ": points")
        check(np.all(pts[:, dim:] == 0), path + ": padding not zero")
        check(np.array_equal(v["point"]["id"][:, 0], np.arange(n)), path + ": id")
        for name, values in ref.items():
            if name == "position":
                continue
            vtk_name = "type" if name == "species" else name
            got = v["point"].get(vtk_name)
            check(got is not None, "%s: no point data %s" % (path, vtk_name))
            if got is None:
                continue
            want = values[k].reshape(n, -1)
            check(np.array_equal(got[:, :want.shape[1]], want), "%s: %s" % (path, vtk_name))
        check(float(e.get("timestep")) == times[k], path + ": the .pvd's timestep")
        check(e.get("file").endswith("_%09d.vtp" % steps[k]), path + ": not named by its step")
    box = read_vtp(os.path.join(directory, prefix + "_box.vtp"))
    corners = 2 ** dim
    check(box["points"] == corners and box["verts"] == 0, "box: %d points" % box["points"])
    check(box["lines"] == dim * 2 ** (dim - 1), "box: %d lines" % box["lines"])
    check(np.allclose(box["Points"].max(axis=0)[:dim], edges), "box corners vs H5MD box")
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok: %d VTK frames of %s read as OVITO reads them" % (len(entries), prefix))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
