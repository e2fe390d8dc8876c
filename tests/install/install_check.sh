#!/usr/bin/env bash
# The installed tree works on its own: `cmake --install` to a temporary prefix, then from there
# md3d runs the tiny config with the kernel files of the prefix (not of the source tree), `smelt
# check` checks an installed kernel file, `smelt convert` converts the run's H5MD file, and a
# project outside the tree builds and runs against find_package(smelt).
#
#   install_check.sh BUILD_DIR SOURCE_DIR [CMAKE]
set -euo pipefail
build=$1 source=$2 cmake=${3:-cmake}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/smelt_install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$cmake" --install "$build" --prefix "$prefix" >"$prefix/install.log" || {
    cat "$prefix/install.log"; fail "cmake --install"; }
for f in bin/smelt bin/md2d bin/md3d bin/vortex include/smelt/smelt.h lib/libsmelt_engine.a \
         lib/cmake/smelt/smeltConfig.cmake lib/cmake/smelt/smeltTargets.cmake \
         share/smelt/md3d/physics.py share/smelt/kernels/lj.py share/smelt/convert.py \
         share/smelt/configs/ci/md3d_tiny.yaml; do
    [ -e "$prefix/$f" ] || fail "$f is not installed"
done

cd "$prefix"
"$prefix/bin/md3d" run share/smelt/configs/ci/md3d_tiny.yaml --steps 10 --output out \
    >md3d.log 2>&1 || { cat md3d.log; fail "installed md3d run"; }
grep -q "^physics      $prefix/share/smelt/md3d/physics.py\$" md3d.log ||
    { cat md3d.log; fail "md3d did not use the installed physics.py"; }
[ -s out/md3d_tiny.h5 ] || fail "md3d wrote no H5MD file"

"$prefix/bin/smelt" check share/smelt/kernels/lj.py >check.log 2>&1 ||
    { cat check.log; fail "installed smelt check"; }
grep -q "^ok: " check.log || { cat check.log; fail "smelt check did not say ok"; }
"$prefix/bin/smelt" check share/smelt/kernels/missing.py >/dev/null 2>&1 && fail "check of a missing file passed"

"$prefix/bin/smelt" convert out/md3d_tiny.h5 out/md3d.data >convert.log 2>&1 ||
    { cat convert.log; fail "installed smelt convert"; }
grep -q "^500 atoms" out/md3d.data || fail "the LAMMPS data file has not 500 atoms"

"$cmake" -S "$source/tests/install/consumer" -B consumer -DCMAKE_PREFIX_PATH="$prefix" \
    -DSMELT_EXAMPLE_SOURCE="$source/examples/axpb.cpp" >consumer.log 2>&1 &&
    "$cmake" --build consumer >>consumer.log 2>&1 || { cat consumer.log; fail "find_package(smelt)"; }
consumer/axpb "$source/examples/axpb.py" >axpb.log 2>&1 || { cat axpb.log; fail "consumer run"; }
grep -q "^y\[0\] = 1.000000" axpb.log || { cat axpb.log; fail "consumer result"; }
echo "ok: the tree installed in $prefix runs md3d, smelt check, smelt convert, find_package"
