#!/usr/bin/env bash
# bench/curand.sh [N] — libcurand on the software device, in one run:
# curandGenerateUniform of N floats (default 2^24) for XORWOW, Philox4_32_10,
# MRG32k3a and MTGP32 against a plain host C loop of the same generator on the
# same cores (bench/libs/curand.cu), and the Sobol32 and scrambled Sobol32
# generators in 64 dimensions against a plain host loop of their Gray-code
# recurrence (bench/libs/curand_sobol.cu).  Prints ROW lines like
# bench/run.sh's programs; needs nvcc and metalcuda's libcurand (make).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
exe=$BUILD/bench/curand_uniform
mkdir -p "$BUILD/bench"
if [ ! -x "$exe" ] || [ bench/libs/curand.cu -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$exe" bench/libs/curand.cu -lcurand || exit 1
fi
"$TOOL" run "$exe" "${1:-16777216}" || exit 1
sobol=$BUILD/bench/curand_sobol
if [ ! -x "$sobol" ] || [ bench/libs/curand_sobol.cu -nt "$sobol" ] || [ bench/bench.h -nt "$sobol" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$sobol" bench/libs/curand_sobol.cu -lcurand || exit 1
fi
"$TOOL" run "$sobol" "${1:-16777216}"
