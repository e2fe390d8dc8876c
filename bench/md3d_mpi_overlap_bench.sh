#!/usr/bin/env bash
# md3d on 2 GPUs with MPI, the halo refresh overlapped with the interior forces (domain.overlap,
# apps/md3d/README.md "Many processes") against the refresh before the forces, and one GPU, on
# configs/md3d_hoomd_bench.yaml (LJ at density 1, single precision): weak scaling (10^6 atoms
# per GPU, 1000 steps) and strong scaling (8·10^6 atoms, 300 steps). Each case runs ROUNDS
# times, the overlap on and off interleaved (a shared machine drifts), and every rate is printed.
#
#   bench/md3d_mpi_overlap_bench.sh BUILD_DIR [ROUNDS] [BACKEND]
#
# BACKEND: cuda (default) or opencl. Prints per run: case, GPUs, overlap, atom-steps/s of the
# whole run (the "done after" line), then the last run's per-rank exchange phases.
set -euo pipefail
build=${1:?build directory}
rounds=${2:-3}
backend=${3:-cuda}
src=$(cd "$(dirname "$0")/.." && pwd)
md3d=$build/apps/md3d/md3d
config=$src/configs/md3d_hoomd_bench.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# run NP CELLS STEPS OVERLAP: prints the rate; the full summary line goes to $work/last.
run() {
    local np=$1 cells=$2 steps=$3 overlap=$4
    mpirun --bind-to none -np "$np" "$md3d" run "$config" --backend "$backend" \
        --precision single --set "system.cells=$cells" --set "integrator.steps=$steps" \
        --set "domain.overlap=$overlap" --set output.h5md=false --set output.csv=false \
        --set output.checkpoint=false --set output.progress=false --output "$work/out" --overwrite |
        grep '^done after' | tee "$work/last" | grep -o '[0-9.e+]* particle-steps/s' |
        awk '{print $1}'
}

printf '%-8s %4s %8s %14s\n' case GPUs overlap atom-steps/s
for ((r = 0; r < rounds; r++)); do
    printf '%-8s %4d %8s %14s\n' weak 1 - "$(run 1 '[100,100,100]' 1000 true)"
    for o in true false; do
        printf '%-8s %4d %8s %14s\n' weak 2 "$o" "$(run 2 '[200,100,100]' 1000 "$o")"
    done
    printf '%-8s %4d %8s %14s\n' strong 1 - "$(run 1 '[200,200,200]' 300 true)"
    for o in true false; do
        printf '%-8s %4d %8s %14s\n' strong 2 "$o" "$(run 2 '[200,200,200]' 300 "$o")"
    done
done
echo "last run (strong, 2 GPUs, overlap off): $(cat "$work/last")"
run 2 '[200,200,200]' 300 true > /dev/null
echo "strong, 2 GPUs, overlap on: $(cat "$work/last")"
