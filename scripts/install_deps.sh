#!/usr/bin/env bash
# Installs what building and testing Smelt needs on Debian 12 (run as root, or with sudo).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    cmake ninja-build g++ make git clang-format \
    libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev \
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo \
    libyaml-cpp-dev libhdf5-dev libvtk9-dev \
    python3 python3-dev pybind11-dev python3-numpy python3-pytest python3-h5py python3-matplotlib python3-yaml \
    python3-mako \
    >/dev/null
# The readers the output tests open an app's files with (tests/apps/outputs_readers_test.cpp):
# MDAnalysis, the gsd package (GSD, HOOMD-blue's format) and LAMMPS. Each test skips without its
# reader. ParaView stays out: its Python conflicts with libvtk9-dev on Debian 12.
$SUDO apt-get install -y -qq --no-install-recommends \
    python3-mdanalysis python3-gsd lammps \
    >/dev/null
# MPI for md3d's domain decomposition (apps/common/domain; the ctest label mpi runs md3d on 1, 2
# and 4 ranks against the serial run). Optional: without it the apps build serial only.
$SUDO apt-get install -y -qq --no-install-recommends \
    openmpi-bin libopenmpi-dev \
    >/dev/null
