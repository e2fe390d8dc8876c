#!/usr/bin/env python3
"""Size and write time of one md3d-like VTK frame in each encoding VTK's XML writer offers.

    /usr/bin/python3 bench/vtk_encoding.py [--n 100000] [--repeat 5]

The frame is what apps/common/vtk_writer.cpp writes: N vertices (Float64 points), id and type
(Int64), velocity and force (3 x Float64), potential_energy (Float64), with random values (no
structure for zlib to find beyond what real coordinates have). Prints one row per encoding:
bytes per particle and the median write time. OVITO reads only the uncompressed inline modes
(ascii, binary); ParaView reads all of them. docs/OUTPUTS.md records a run.
"""

import argparse
import os
import statistics
import tempfile
import time

import numpy as np
import vtk
from vtk.util import numpy_support as ns


def frame(n, rng):
    poly = vtk.vtkPolyData()
    pts = vtk.vtkPoints()
    pts.SetData(ns.numpy_to_vtk(rng.uniform(0.0, 40.0, (n, 3)), deep=True))
    poly.SetPoints(pts)
    verts = vtk.vtkCellArray()
    for i in range(n):
        verts.InsertNextCell(1)
        verts.InsertCellPoint(i)
    poly.SetVerts(verts)
    arrays = {
        "id": np.arange(n, dtype=np.int64),
        "type": rng.integers(0, 2, n).astype(np.int64),
        "velocity": rng.normal(0.0, 1.0, (n, 3)),
        "force": rng.normal(0.0, 10.0, (n, 3)),
        "potential_energy": rng.normal(-6.0, 1.0, n),
    }
    for name, values in arrays.items():
        a = ns.numpy_to_vtk(values, deep=True)
        a.SetName(name)
        poly.GetPointData().AddArray(a)
    return poly


MODES = {
    "ascii": lambda w: (w.SetDataModeToAscii(), w.SetCompressorTypeToNone()),
    "binary (inline base64)": lambda w: (w.SetDataModeToBinary(), w.SetCompressorTypeToNone()),
    "appended raw": lambda w: (w.SetDataModeToAppended(), w.EncodeAppendedDataOff(),
                               w.SetCompressorTypeToNone()),
    "appended base64": lambda w: (w.SetDataModeToAppended(), w.EncodeAppendedDataOn(),
                                  w.SetCompressorTypeToNone()),
    "appended raw + zlib": lambda w: (w.SetDataModeToAppended(), w.EncodeAppendedDataOff(),
                                      w.SetCompressorTypeToZLib()),
    "binary + zlib": lambda w: (w.SetDataModeToBinary(), w.SetCompressorTypeToZLib()),
}
OVITO = {"ascii", "binary (inline base64)"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    poly = frame(a.n, np.random.default_rng(1))
    print("%-24s %10s %10s %8s  %s" % ("encoding", "bytes/atom", "ms/frame", "MB/s", "OVITO"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f.vtp")
        for name, setup in MODES.items():
            times = []
            for _ in range(a.repeat):
                w = vtk.vtkXMLPolyDataWriter()
                w.SetFileName(path)
                w.SetInputData(poly)
                w.SetHeaderTypeToUInt64()
                setup(w)
                t0 = time.perf_counter()
                assert w.Write() == 1
                times.append(time.perf_counter() - t0)
            size = os.path.getsize(path)
            t = statistics.median(times)
            print("%-24s %10.1f %10.1f %8.0f  %s" % (name, size / a.n, 1e3 * t, size / t / 1e6,
                                                  "yes" if name in OVITO else "no"))


if __name__ == "__main__":
    main()
