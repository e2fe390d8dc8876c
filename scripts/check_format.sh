#!/usr/bin/env bash
# Every tracked C, C++ and CUDA file is formatted as the repo's .clang-format says. Golden files
# (generated text the tests compare against) are left out.
# Usage: scripts/check_format.sh [--fix] [REPO_ROOT]. Exit 77 (ctest: skipped) without clang-format.
set -euo pipefail
fix=0
if [ "${1:-}" = --fix ]; then fix=1; shift; fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
if ! command -v clang-format >/dev/null; then
    echo "skipped: clang-format is not installed (Debian: apt-get install clang-format)"
    exit 77
fi
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' '*.cu' '*.cuh' | grep -v '/golden/')
if [ "$fix" = 1 ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
    echo "not formatted by $(clang-format --version | head -1):"
    printf '  %s\n' "${bad[@]}"
    echo "fix with: scripts/check_format.sh --fix"
    exit 1
fi
echo "${#files[@]} files formatted as .clang-format says"
