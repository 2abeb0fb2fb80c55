#!/usr/bin/env bash
# bench/cufft.sh [LOGN [BATCH]] — libcufft on the software device against
# FFTW on the same cores, in one run: a 1-D batch of BATCH (default 4)
# 2^LOGN-point (default 2^20) C2C transforms (bench/libs/fft.cu).  Prints a
# ROW line like bench/run.sh's programs; needs nvcc, FFTW (libfftw3f and
# libfftw3f_threads) and metalcuda's libcufft (make).  A second row: the
# same transforms with an LTO load callback against without one
# (bench/libs/fft_cb.cu; the callback built to LTO-IR by nvcc here).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
exe=$BUILD/bench/cufft_fft
mkdir -p "$BUILD/bench"
if [ ! -x "$exe" ] || [ bench/libs/fft.cu -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$exe" bench/libs/fft.cu -lcufft -ldl || exit 1
fi
"$TOOL" run "$exe" "${1:-20}" "${2:-4}"
cbexe=$BUILD/bench/cufft_fft_cb
if [ ! -x "$cbexe" ] || [ bench/libs/fft_cb.cu -nt "$cbexe" ] || [ bench/libs/fft_cb_lto.cu -nt "$cbexe" ]; then
   "$NVCC" -dc -gencode arch=compute_75,code=lto_75 -gencode arch=compute_90,code=lto_90 -fatbin -o "$cbexe.fatbin" \
      bench/libs/fft_cb_lto.cu || exit 1
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$cbexe" bench/libs/fft_cb.cu -lcufft || exit 1
fi
"$TOOL" run "$cbexe" "$cbexe.fatbin" "${1:-20}" "${2:-4}"
