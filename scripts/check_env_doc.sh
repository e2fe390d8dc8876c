#!/usr/bin/env bash
# Every SMELT_* environment variable the code reads (getenv in C++, os.environ in Python) must
# have a row in docs/ENV.md. Usage: scripts/check_env_doc.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
read_vars=$(grep -rhoE "(getenv\(\"|env_flag\(\"|environ(\.get)?[\[(][\"'])SMELT_[A-Z0-9_]+" \
                 engine apps python tests bench scripts 2>/dev/null |
            grep -oE "SMELT_[A-Z0-9_]+" | sort -u)
missing=0
for v in $read_vars; do
    if ! grep -q "\`$v\`" docs/ENV.md; then
        echo "docs/ENV.md: no row for $v (read by: $(grep -rlE "$v" engine apps python tests bench scripts | head -3 | tr '\n' ' '))"
        missing=1
    fi
done
[ "$missing" = 0 ] && echo "docs/ENV.md documents all $(echo "$read_vars" | wc -w) SMELT_* variables the code reads"
exit $missing
