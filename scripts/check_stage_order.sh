#!/usr/bin/env bash
# The engine's folders follow the pipeline: a stage may include its own headers and those of
# earlier stages, never a later stage's (ARCHITECTURE.md, "engine/ folders"). This checks every
# `#include "..."` under engine/ that names a file of engine/ and fails naming the file, the line
# and the include. Usage: scripts/check_stage_order.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root/engine"

# The stage order, first to last: one stage per line, "name: paths under engine/". A folder
# holds one stage (its subfolders too: ir/passes is ir); engine/pipeline.* is the front half's
# driver (parse → lower → passes → emit); engine/smelt.h declares the public classes whose
# state primitives/ holds and whose methods api/ implements. cli and python are siblings.
stages='
support:    support/
frontend:   frontend/
ir:         ir/
lower:      lower/
codegen:    codegen/
pipeline:   pipeline.h pipeline.cpp
cache:      cache/
backends:   backends/
array:      array/
primitives: primitives/ smelt.h
api:        api/
cli+python: cli/ python/
'

declare -A rank_of name_of
n=0
while read -r name paths; do
    [ -n "$name" ] || continue
    n=$((n + 1))
    for p in $paths; do
        rank_of[$p]=$n
        name_of[$p]=${name%:}
    done
done <<<"$stages"
order=$(awk 'NF { sub(":", "", $1); printf "%s%s", sep, $1; sep = " → " }' <<<"$stages")

# The stage key of a path under engine/ is its first folder ("ir/" for ir/passes/x.h), or the
# file itself at the top level.

bad=0
while IFS= read -r -d '' file; do
    file=${file#./}
    from=$file
    [[ $file == */* ]] && from=${file%%/*}/
    if [ -z "${rank_of[$from]:-}" ]; then
        echo "engine/$file: engine/$from is in no stage: add it to the stage list in" \
             "scripts/check_stage_order.sh (and to ARCHITECTURE.md)"
        bad=1
        continue
    fi
    while IFS=: read -r line inc; do
        # Only includes of engine files by their path from engine/ ("ir/ir.h"); a name next to
        # the including file ("wrappers.h") is in the same stage.
        [ -f "$inc" ] || continue
        to=$inc
        [[ $inc == */* ]] && to=${inc%%/*}/
        [ -n "${rank_of[$to]:-}" ] || continue
        if [ "${rank_of[$to]}" -gt "${rank_of[$from]}" ]; then
            echo "engine/$file:$line: includes \"$inc\": ${name_of[$from]} must not include" \
                 "${name_of[$to]}, a later stage"
            bad=1
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$file" |
             sed -E 's/^([0-9]+):[^"]*"([^"]+)".*/\1:\2/')
done < <(find . -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.inc' -o -name '*.cu' \) -print0 |
         sort -z)

if [ "$bad" = 0 ]; then
    echo "engine/ includes follow the stage order: $order"
else
    echo "stage order: $order"
fi
exit $bad
