#!/usr/bin/env bash
# Tests `pip install .` as a user runs it: builds the package into a fresh temporary venv and
# checks what it installs. Slow (the engine is compiled from scratch: about 5 minutes on 2 cores)
# and it needs PyPI (pip fetches the build requirements), so it is not part of scripts/test.sh
# or CI; run it by hand before a release:
#
#     bash scripts/test_pip_install.sh            # PYTHON=/usr/bin/python3 by default
#
# Checks: `smelt --help` and `python -m smelt --help` run; an Elementwise kernel (Compyle's API)
# gives NumPy's result; `smelt check` accepts a correct kernel file and reports a wrong one as
# file:line:col with exit status 1; the build left no files in the source tree (the build tree
# is scikit-build-core's temporary folder). Prints what pip downloaded. Exit 0 when all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
PYTHON=${PYTHON:-/usr/bin/python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/smelt-pip-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The source tree's untracked and ignored entries before and after: pip must not add any (edits
# to tracked files while the test runs are not the build's and are left out).
tree_state() {
    git -C "$SRC" status --porcelain --ignored --untracked-files=normal | grep -E '^(\?\?|!!)' |
        sort || true
}
before=$(tree_state)

# --system-site-packages: the venv sees the system's NumPy, as README.md's install recipe does.
"$PYTHON" -m venv --system-site-packages "$WORK/venv"
VENV=$WORK/venv
echo "== pip install . (log: $WORK/pip.log, kept on failure below)"
# --log: pip's debug log, which also holds the output of the isolated build environment's own
# pip run (where the build requirements are fetched); the console output does not.
if ! "$VENV/bin/pip" install --no-input --log "$WORK/pip-debug.log" "$SRC" >"$WORK/pip.log" 2>&1; then
    tail -n 40 "$WORK/pip.log" >&2
    fail "pip install . failed"
fi
echo "== what pip fetched (Collecting: a requirement resolved; Downloading or cached: its wheel)"
grep -E "(Collecting|Downloading|Using cached) [^ ]" "$WORK/pip-debug.log" |
    sed -E 's/^.*(Collecting|Downloading|Using cached) /   \1 /' | sort -u || true

after=$(tree_state)
if [ "$before" != "$after" ]; then
    diff <(echo "$before") <(echo "$after") >&2 || true
    fail "pip install . changed the source tree (its build tree must be outside it)"
fi
echo "ok: source tree unchanged by the build"

cd "$WORK" # away from the source tree, so `import smelt` finds the installed package
export SMELT_CACHE_DIR=$WORK/kernel-cache

[ -x "$VENV/bin/smelt" ] || fail "no smelt command in $VENV/bin"
"$VENV/bin/smelt" --help >"$WORK/help1.txt" || fail "smelt --help exited with $?"
grep -q "check" "$WORK/help1.txt" || fail "smelt --help does not list the check command"
echo "ok: smelt --help"
"$VENV/bin/python" -m smelt --help >"$WORK/help2.txt" || fail "python -m smelt --help failed"
cmp -s "$WORK/help1.txt" "$WORK/help2.txt" || fail "python -m smelt --help differs from smelt --help"
echo "ok: python -m smelt --help"

# Elementwise against NumPy: the kernel compiled by the installed engine must give NumPy's values.
# A file, not stdin: smelt compiles a kernel from its function's source file.
cat >"$WORK/elementwise_check.py" <<'EOF'
import numpy as np
import smelt
from smelt import Elementwise, annotate, sin

assert smelt.__file__.find("/venv/") > 0, "imported %s, not the installed package" % smelt.__file__

@annotate(i="int", doublep="x, y", double="a, b")
def axpb(i, x, y, a, b):
    y[i] = a * sin(x[i]) + b

x = np.linspace(0.0, 3.0, 10001)
y = np.zeros_like(x)
Elementwise(axpb, backend="cython")(x, y, 2.0, 3.0)
expected = 2.0 * np.sin(x) + 3.0
err = np.max(np.abs(y - expected))
print("ok: Elementwise axpb on %d elements, max |error| vs NumPy %.3g" % (x.size, err))
assert err <= 1e-12, err
EOF
"$VENV/bin/python" "$WORK/elementwise_check.py" || fail "Elementwise result differs from NumPy"

cat >"$WORK/good.py" <<'EOF'
from smelt import annotate


@annotate(i="int", doublep="x, y", double="a")
def scale(i, x, y, a):
    y[i] = a * x[i]
EOF
out=$("$VENV/bin/smelt" check "$WORK/good.py") || fail "smelt check on a correct kernel: exit $?"
[ "$out" = "ok: 1 function checked" ] || fail "smelt check printed '$out'"
echo "ok: smelt check good.py: $out"

# Line 6, column 12: a name that is defined nowhere.
cat >"$WORK/bad.py" <<'EOF'
from smelt import annotate


@annotate(i="int", doublep="x, y")
def scale(i, x, y):
    y[i] = undefined_name * x[i]
EOF
set +e
"$VENV/bin/smelt" check "$WORK/bad.py" >"$WORK/bad.txt" 2>&1
status=$?
set -e
[ $status -eq 1 ] || fail "smelt check on a wrong kernel: exit $status, expected 1"
grep -q "bad.py:6:12: error:" "$WORK/bad.txt" || {
    cat "$WORK/bad.txt" >&2
    fail "smelt check did not report bad.py:6:12"
}
echo "ok: smelt check bad.py: exit 1, $(grep -m1 'error:' "$WORK/bad.txt")"
echo "PASS: pip install ."
