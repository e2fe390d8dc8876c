#!/usr/bin/env bash
# Sets up ParaView (Debian 12's 5.11) and OVITO (PyPI) for validation/render_outputs.py in a
# private folder, without installing anything into the system: Debian's `paraview` must not be
# apt-installed where libvtk9-dev is (its python3-paraview conflicts with python3-vtk9), and the
# machine has no display and no Vulkan driver.
#
#     bash validation/setup_viewers.sh DIR        # e.g. DIR=$HOME/smelt-viewers
#     source DIR/env.sh                           # PATH, LD_LIBRARY_PATH, PYTHONPATH, DISPLAY
#     bash DIR/start_xvfb.sh                      # a virtual X display :77 for pvpython
#     pvpython validation/render_outputs.py paraview RUNDIR PREFIX out/pv.png
#     DIR/venv-ovito/bin/python validation/render_outputs.py ovito RUNDIR PREFIX out/ovito.png
#
# What it does:
# - `apt-get download` paraview, python3-paraview, the three Qt 5 libraries they need that a
#   Smelt build machine lacks (libqt5help5, libqt5sql5, libqt5opengl5), Xvfb (xvfb, libxfont2,
#   x11-xkb-utils, xserver-common), and Mesa's software Vulkan (libvulkan1,
#   mesa-vulkan-drivers: OVITO 3.17 renders only through Vulkan, even with its Tachyon
#   renderer); `dpkg -x` each into DIR/root. About 90 MB downloaded, 600 MB unpacked.
# - Copies Xvfb to Xvfb-localxkb with its keymap compiler path changed from /usr/bin to "."
#   (Xvfb runs `/usr/bin/xkbcomp` at start and has no option to move it; start_xvfb.sh runs it
#   from DIR/root/usr/bin, where xkbcomp was unpacked).
# - Creates DIR/venv-ovito (python3 -m venv --system-site-packages) and pip-installs `ovito`
#   (3.17 here: it brings NumPy 2, PySide6 and traits into the venv; about 250 MB).
# Needs the Debian package repositories and PyPI. Rerunning it reuses what is there.
set -euo pipefail
DIR=${1:?usage: setup_viewers.sh DIR}
mkdir -p "$DIR/debs" "$DIR/root"
DIR=$(cd "$DIR" && pwd)
cd "$DIR/debs"
apt-get download paraview python3-paraview libqt5help5 libqt5sql5 libqt5opengl5 \
    xvfb libxfont2 x11-xkb-utils xserver-common libvulkan1 mesa-vulkan-drivers
for deb in *.deb; do dpkg -x "$deb" "$DIR/root"; done
cd "$DIR"

python3 - "$DIR/root/usr/bin/Xvfb" <<'EOF'
import sys
path = sys.argv[1]
data = open(path, "rb").read()
old = b"\0/usr/bin\0"
assert data.count(old) == 1, "Xvfb: expected one /usr/bin string, found %d" % data.count(old)
open(path + "-localxkb", "wb").write(data.replace(old, b"\0." + b"\0" * 8))
EOF
chmod +x "$DIR/root/usr/bin/Xvfb-localxkb"

sed "s#/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so#$DIR/root/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so#" \
    "$DIR/root/usr/share/vulkan/icd.d/lvp_icd.x86_64.json" >"$DIR/lvp_icd.json"

cat >"$DIR/env.sh" <<EOF
# ParaView 5.11 (pvpython) and OVITO's Vulkan driver from $DIR; Xvfb display :77.
export PATH=$DIR/root/usr/bin\${PATH:+:\$PATH}
export LD_LIBRARY_PATH=$DIR/root/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export PYTHONPATH=$DIR/root/usr/lib/python3/dist-packages\${PYTHONPATH:+:\$PYTHONPATH}
export VK_ICD_FILENAMES=$DIR/lvp_icd.json
export DISPLAY=:77
EOF

# -noreset: without it the server resets when its last client disconnects, and pvpython, which
# opens and closes a probe connection first, then fails with "bad X server connection".
cat >"$DIR/start_xvfb.sh" <<EOF
#!/usr/bin/env bash
cd $DIR/root/usr/bin
LD_LIBRARY_PATH=$DIR/root/usr/lib/x86_64-linux-gnu ./Xvfb-localxkb :77 -screen 0 1024x1024x24 \\
    -nolisten tcp -noreset -xkbdir /usr/share/X11/xkb >$DIR/xvfb.log 2>&1 &
echo \$! >$DIR/xvfb.pid
echo "Xvfb on :77, pid \$(cat $DIR/xvfb.pid) (stop it with: kill \$(cat $DIR/xvfb.pid))"
EOF
chmod +x "$DIR/start_xvfb.sh"

[ -x "$DIR/venv-ovito/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$DIR/venv-ovito"
"$DIR/venv-ovito/bin/pip" install --no-input ovito
echo "ready: source $DIR/env.sh; bash $DIR/start_xvfb.sh"
