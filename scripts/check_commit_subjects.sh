#!/usr/bin/env bash
# Commit subjects are at most 72 characters, so `git log --oneline` and mail tools show them
# whole. Checks the commits after the one that introduced this check (older history is left as
# it is); in a shallow clone that lacks it, the commits the clone has.
# Usage: scripts/check_commit_subjects.sh [REPO_ROOT]. Exit 77 (ctest: skipped) outside git.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
git rev-parse --git-dir >/dev/null 2>&1 || { echo "skipped: not a git checkout"; exit 77; }
first=$(git log --diff-filter=A --format=%H -- scripts/check_commit_subjects.sh | tail -1)
range=HEAD
if [ -n "$first" ] && git cat-file -e "$first^" 2>/dev/null; then range="$first^..HEAD"; fi
long=$(git log --no-merges --format='%h %s' "$range" | awk '{ s = substr($0, index($0, " ") + 1); if (length(s) > 72) print length(s) ": " $0 }')
if [ -n "$long" ]; then
    echo "commit subjects longer than 72 characters:"
    echo "$long"
    exit 1
fi
echo "every commit subject in $range is at most 72 characters"
