#!/usr/bin/env bash
# bench/curand.sh [N [M]] — libcurand on the software device, in one run:
# curandGenerateUniform of N floats (default 2^24) for XORWOW, Philox4_32_10,
# MRG32k3a and MTGP32 against a plain host C loop of the same generator on the
# same cores (bench/libs/curand.cu), and the Sobol32 and scrambled Sobol32
# generators in 64 dimensions against a plain host loop of their Gray-code
# recurrence (bench/libs/curand_sobol.cu); curandGeneratePoisson of M values
# (default 2^22), our host and device generators against NVIDIA's host
# generator (bench/libs/curand_poisson.cu); MT19937's set-up and
# curandGenerateUniform of N floats, our host and device generators against
# NVIDIA's host generator (bench/libs/curand_mt19937.cu).  Prints ROW lines like
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
"$TOOL" run "$sobol" "${1:-16777216}" || exit 1
# Poisson: against NVIDIA's host generator (its libcurand beside nvcc)
pois=$BUILD/bench/curand_poisson
if [ ! -x "$pois" ] || [ bench/libs/curand_poisson.cu -nt "$pois" ] || [ bench/bench.h -nt "$pois" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$pois" bench/libs/curand_poisson.cu -lcurand -ldl || exit 1
fi
nvlib=$(dirname "$(command -v "$NVCC")")/../lib64/libcurand.so.10
"$TOOL" run "$pois" "${2:-4194304}" "$nvlib"
# MT19937: against NVIDIA's host generator too
mt=$BUILD/bench/curand_mt19937
if [ ! -x "$mt" ] || [ bench/libs/curand_mt19937.cu -nt "$mt" ] || [ bench/bench.h -nt "$mt" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$mt" bench/libs/curand_mt19937.cu -lcurand -ldl || exit 1
fi
"$TOOL" run "$mt" "${1:-16777216}" "$nvlib"
