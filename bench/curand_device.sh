#!/usr/bin/env bash
# bench/curand_device.sh [--ours] [PAIRS] — cuRAND's device API (bench/curand_device.cu)
# built both ways and run in one go: by NVIDIA's nvcc against NVIDIA's
# curand_kernel.h (through `bin/metalcuda run`) and by `bin/metalcuda nvcc`
# against metalcuda's include/curand_kernel.h (run directly).  Each prints
# ROW lines in bench/run.sh's format: the Monte-Carlo kernel against the
# same generator's loop on the host's cores, and curand_init's price in
# generated values.  --ours: only the second (bench/run.sh builds and runs
# the first with the other bench programs).  Exit 77 without the tool.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
out=$BUILD/bench
mkdir -p "$out"
src=bench/curand_device.cu
[ -x "$TOOL" ] || exit 77
ours=0
[ "${1:-}" = --ours ] && { ours=1; shift; }
if [ $ours -eq 0 ] && command -v "$NVCC" >/dev/null 2>&1; then
   if [ ! -x "$out/curand_device" ] || [ $src -nt "$out/curand_device" ]; then
      "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$out/curand_device" $src || exit 1
   fi
   "$TOOL" run "$out/curand_device" "$@" || exit 1
fi
if [ ! -x "$out/curand_device.mc" ] || [ $src -nt "$out/curand_device.mc" ] || [ include/curand_kernel.h -nt "$out/curand_device.mc" ]; then
   "$TOOL" nvcc -arch=sm_75 -O2 -Ibench -o "$out/curand_device.mc" $src || exit 1
fi
"$out/curand_device.mc" "$@"
