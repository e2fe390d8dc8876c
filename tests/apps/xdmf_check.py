#!/usr/bin/env python3
"""An XDMF sidecar against the H5MD file it points into (h5py): one temporal grid per position
frame with that frame's time; every HDF DataItem names a dataset that exists with the stated
dimensions and number type; every HyperSlab selects one row inside it and yields the stated
shape; the geometry is the position's row (XYZ in 3D, XY in 2D).

    xdmf_check.py FILE.xdmf

Exit status: 0 ok, 1 a check failed, 77 h5py is not installed (the caller skips).
"""

import os
import sys
import xml.etree.ElementTree as ET

try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover - depends on the machine
    print("skip: %s" % e)
    sys.exit(77)

errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def dims(item):
    return tuple(int(v) for v in item.get("Dimensions").split())


def hyperslab(item, folder, files):
    """Checks a HyperSlab DataItem; returns (dataset path, start row)."""
    select, data = item.findall("DataItem")
    rank = len(dims(data))
    check(dims(select) == (3, rank), "hyperslab selection of %r" % (dims(select),))
    start, stride, count = np.array(select.text.split(), dtype=int).reshape(3, rank)
    file_name, path = data.text.strip().split(":", 1)
    f = files.setdefault(file_name, h5py.File(os.path.join(folder, file_name), "r"))
    check(path in f, "%s has no %s" % (file_name, path))
    if path not in f:
        return path, -1
    d = f[path]
    check(d.shape == dims(data), "%s is %r, the sidecar says %r" % (path, d.shape, dims(data)))
    kind = "Int" if np.issubdtype(d.dtype, np.integer) else "Float"
    check(data.get("NumberType") == kind and int(data.get("Precision")) == d.dtype.itemsize,
          "%s: number type %s/%s for %s" % (path, data.get("NumberType"),
                                            data.get("Precision"), d.dtype))
    check(np.all(stride == 1) and count[0] == 1 and np.all(start[1:] == 0)
          and np.all(count[1:] == d.shape[1:]) and 0 <= start[0] < d.shape[0],
          "%s: the slab %r %r is not one row" % (path, start, count))
    check(dims(item) == tuple(d.shape[1:]), "%s: the slab's dimensions %r" % (path, dims(item)))
    return path, int(start[0])


def main():
    xdmf = sys.argv[1]
    folder = os.path.dirname(os.path.abspath(xdmf))
    root = ET.parse(xdmf).getroot()
    check(root.tag == "Xdmf" and root.get("Version") == "3.0", "not XDMF 3")
    series = root.find("Domain/Grid")
    check(series.get("GridType") == "Collection" and series.get("CollectionType") == "Temporal",
          "not a temporal collection")
    files = {}
    grids = series.findall("Grid")
    for k, grid in enumerate(grids):
        geometry = grid.find("Geometry")
        path, row = hyperslab(geometry.find("DataItem"), folder, files)
        check(path == "/particles/all/position/value" and row == k,
              "grid %d: geometry is %s row %d" % (k, path, row))
        h5 = next(iter(files.values()))
        dim = int(h5["particles/all/box"].attrs["dimension"])
        check(geometry.get("GeometryType") == ("XYZ" if dim == 3 else "XY"), "geometry type")
        t = float(grid.find("Time").get("Value"))
        check(t == h5["particles/all/position/time"][k], "grid %d: time %r" % (k, t))
        n = int(grid.find("Topology").get("NumberOfElements"))
        check(n == h5["particles/all/position/value"].shape[1], "grid %d: %d vertices" % (k, n))
        for a in grid.findall("Attribute"):
            path, row = hyperslab(a.find("DataItem"), folder, files)
            check(row == k, "grid %d: %s row %d" % (k, a.get("Name"), row))
    h5 = next(iter(files.values()), None)
    if h5 is not None:
        check(len(grids) == h5["particles/all/position/value"].shape[0],
              "%d grids for %d frames" % (len(grids), h5["particles/all/position/value"].shape[0]))
    for f in files.values():
        f.close()
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok: %s: %d frames, every dataset there" % (xdmf, len(grids)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
