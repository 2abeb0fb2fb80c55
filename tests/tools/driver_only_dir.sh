#!/usr/bin/env bash
# tests/tools/driver_only_dir.sh BUILD LIBDIR — makes BUILD/nvrt-driver, a
# directory holding only metalcuda's libcuda.so.1 (a link into LIBDIR), and
# prints its absolute path.  Put it first on LD_LIBRARY_PATH to run NVIDIA's
# own libcudart over metalcuda's driver: lib/ itself would also give
# metalcuda's libcudart.  Used by tests/cuda/run.sh --nvidia-runtime,
# tests/cuda12/run.sh and bench/runtimes.sh.
set -eu
dir=$(mkdir -p "$1/nvrt-driver" && cd "$1/nvrt-driver" && pwd)
ln -sf "$(cd "$2" && pwd)/libcuda.so.1" "$dir/libcuda.so.1"
echo "$dir"
