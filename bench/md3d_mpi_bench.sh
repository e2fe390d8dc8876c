#!/usr/bin/env bash
# md3d on 2 MPI ranks x 1 thread against 1 rank x 2 threads and against LAMMPS on 2 ranks, on
# LAMMPS' bench/in.lj (configs/md3d_lammps_inlj.yaml: 32 000 atoms, fcc at 0.8442, T 1.44, NVE,
# r_cut 2.5, skin 0.3). LAMMPS rebuilds its list as md3d does (`every 1 check yes`). Each case
# runs ROUNDS times, interleaved, and the best rate is kept (a shared machine is noisy).
#
#   bench/md3d_mpi_bench.sh BUILD_DIR [STEPS] [ROUNDS]
#
# Prints one line per case: name, ranks, threads per rank, atom-steps/s.
set -euo pipefail
build=${1:?build directory}
steps=${2:-300}
rounds=${3:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
md3d=$build/apps/md3d/md3d
config=$src/configs/md3d_lammps_inlj.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none)

rate_md3d() { # the "done after ... particle-steps/s" line
    grep -o '[0-9.e+]* particle-steps/s' | awk '{print $1}'
}
run_md3d_threads() {
    "$md3d" run "$config" --steps "$steps" --threads 2 --output "$work/t" --overwrite \
        --set output.h5md=false --set output.checkpoint=false | rate_md3d
}
run_md3d_ranks() {
    "${mpirun[@]}" -np 2 "$md3d" run "$config" --steps "$steps" --threads 1 --output "$work/r" \
        --overwrite --set output.h5md=false --set output.checkpoint=false | rate_md3d
}
run_lammps() {
    cat > "$work/in.lj" <<LMP
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 20 0 20 0 20
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 1 check yes
fix 1 all nve
thermo $steps
run 20
run $steps
LMP
    (cd "$work" && OMP_NUM_THREADS=1 "${mpirun[@]}" -np 2 lmp -in in.lj -log log.lammps > /dev/null)
    grep "Loop time" "$work/log.lammps" | tail -1 |
        awk '{print $12 * $9 / $4}' # atoms * steps / seconds
}

best() { sort -g | tail -1; }
declare -A results
for ((r = 0; r < rounds; r++)); do
    results[threads]+="$(run_md3d_threads) "
    results[ranks]+="$(run_md3d_ranks) "
    results[lammps]+="$(run_lammps) "
done
printf '%-34s %5s %8s %14s\n' case ranks threads atom-steps/s
printf '%-34s %5d %8d %14.4g\n' "md3d, 1 rank x 2 threads" 1 2 \
    "$(tr ' ' '\n' <<< "${results[threads]}" | best)"
printf '%-34s %5d %8d %14.4g\n' "md3d, 2 ranks x 1 thread (MPI)" 2 1 \
    "$(tr ' ' '\n' <<< "${results[ranks]}" | best)"
printf '%-34s %5d %8d %14.4g\n' "LAMMPS lj/cut, 2 ranks (MPI)" 2 1 \
    "$(tr ' ' '\n' <<< "${results[lammps]}" | best)"
