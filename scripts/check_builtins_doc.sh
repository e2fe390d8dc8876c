#!/usr/bin/env bash
# docs/LANGUAGE.md's builtin table (between <!-- builtins:begin --> and <!-- builtins:end -->)
# must be what `smelt builtins` prints from the engine's table (engine/lower/builtins.cpp).
# Usage: scripts/check_builtins_doc.sh [--write] SMELT_EXECUTABLE [REPO_ROOT]
# --write replaces the documented table with the generated one instead of comparing.
set -euo pipefail
write=0
if [ "${1:-}" = --write ]; then write=1; shift; fi
smelt=${1:?usage: check_builtins_doc.sh [--write] SMELT_EXECUTABLE [REPO_ROOT]}
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
doc="$root/docs/LANGUAGE.md"
for marker in '<!-- builtins:begin -->' '<!-- builtins:end -->'; do
    if [ "$(grep -cxF -- "$marker" "$doc")" != 1 ]; then
        echo "$doc: needs the line '$marker' exactly once"
        exit 1
    fi
done
documented=$(sed -n '/^<!-- builtins:begin -->$/,/^<!-- builtins:end -->$/p' "$doc" | sed '1d;$d')
generated=$("$smelt" builtins)
if [ "$write" = 1 ]; then
    tmp=$(mktemp)
    { sed -n '1,/^<!-- builtins:begin -->$/p' "$doc"; echo "$generated"
      sed -n '/^<!-- builtins:end -->$/,$p' "$doc"; } > "$tmp"
    cat "$tmp" > "$doc"
    rm -f "$tmp"
    echo "$doc: builtin table regenerated"
    exit 0
fi
if [ "$documented" != "$generated" ]; then
    echo "$doc: the builtin table differs from the engine's (< documented, > smelt builtins):"
    diff <(echo "$documented") <(echo "$generated") || true
    echo "regenerate it: scripts/check_builtins_doc.sh --write $smelt"
    exit 1
fi
echo "docs/LANGUAGE.md lists the engine's $(echo "$generated" | tail -n +3 | wc -l) builtins"
