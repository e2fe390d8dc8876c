#!/usr/bin/env python3
"""Renders one frame of an app's files with ParaView and with OVITO, to PNG: the by-hand check
that both tools open them (validation/README.md, "render_outputs.py").

    pvpython validation/render_outputs.py paraview DIR PREFIX OUT.png   # .pvd + box, and .xdmf
    python3 validation/render_outputs.py ovito DIR PREFIX OUT.png       # .pvd, and the .gsd

DIR/PREFIX are a run's output folder and prefix (a run with output.vtk and output.xdmf on; for
OVITO also `smelt convert DIR/PREFIX.h5 DIR/PREFIX.gsd`). ParaView: Debian's `paraview` (keep it
out of the build environment: its Python conflicts with libvtk9-dev on Debian 12). OVITO:
`pip install ovito`. Each mode writes OUT.png (the last VTK frame) and OUT_xdmf.png (ParaView,
the last frame of the XDMF sidecar) or OUT_gsd.png (OVITO, the last GSD frame).
"""

import os
import sys


def paraview(directory, prefix, out):
    from paraview import simple as pv
    particles = pv.PVDReader(FileName=os.path.join(directory, prefix + ".pvd"))
    box = pv.XMLPolyDataReader(FileName=[os.path.join(directory, prefix + "_box.vtp")])
    view = pv.CreateView("RenderView")
    view.ViewSize = [800, 800]
    scene = pv.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = particles.TimestepValues[-1]
    shown = pv.Show(particles, view)
    shown.SetRepresentationType("Points")
    shown.PointSize = 4
    pv.ColorBy(shown, ("POINTS", "type" if "type" in particles.PointData.keys() else "velocity"))
    pv.Show(box, view)
    view.ResetCamera()
    pv.SaveScreenshot(out, view)
    xdmf = os.path.join(directory, prefix + ".xdmf")
    if os.path.exists(xdmf):
        reader = pv.Xdmf3ReaderS(FileName=[xdmf])
        view2 = pv.CreateView("RenderView")
        view2.ViewSize = [800, 800]
        scene.UpdateAnimationUsingDataTimeSteps()
        scene.AnimationTime = reader.TimestepValues[-1]
        s = pv.Show(reader, view2)
        s.SetRepresentationType("Points")
        view2.ResetCamera()
        pv.SaveScreenshot(out.replace(".png", "_xdmf.png"), view2)


def ovito(directory, prefix, out):
    from ovito.io import import_file
    from ovito.vis import Viewport
    for source, png in ((prefix + ".pvd", out), (prefix + ".gsd", out.replace(".png", "_gsd.png"))):
        path = os.path.join(directory, source)
        if not os.path.exists(path):
            print("no %s, skipped" % path)
            continue
        pipeline = import_file(path)
        data = pipeline.compute(pipeline.source.num_frames - 1)
        print("%s: %d frames, %d particles, properties %s"
              % (source, pipeline.source.num_frames, data.particles.count,
                 list(data.particles.keys())))
        pipeline.add_to_scene()
        vp = Viewport(type=Viewport.Type.Perspective, camera_dir=(-1, -1, -1))
        vp.zoom_all()
        vp.render_image(filename=png, size=(800, 800), frame=pipeline.source.num_frames - 1)
        pipeline.remove_from_scene()


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("paraview", "ovito"):
        print(__doc__, file=sys.stderr)
        return 2
    (paraview if sys.argv[1] == "paraview" else ovito)(*sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
