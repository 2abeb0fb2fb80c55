#!/usr/bin/env bash
# bench/cublas.sh [N [DN [TN [L2N [LTN]]]]] — libcublas on the software device,
# in one run: SGEMM N^3 (default 1024) against OpenBLAS on the same cores
# and against a CUDA-sample-style shared-memory GEMM through the same
# runtime, DGEMM DN^3 (default 256), STRSM, STRMM and cublasXtSsyrk TN x TN (default 512)
# against OpenBLAS (bench/libs/sgemm.cu); then SGEMV N/T, SSYMV, SGBMV,
# CHEMV on L2N x L2N (default 2048) and CHERK L2N/4 against OpenBLAS
# (bench/libs/level2.cu); SGEMM LTN^3 (default 512) through cublasLtMatmul
# (column- and row-major, GELU_BIAS) and the legacy cublasSgemm against
# cublasSgemm (bench/libs/lt.cu).  Prints ROW lines like bench/run.sh's programs;
# needs nvcc, OpenBLAS (libopenblas.so.0) and metalcuda's libcublas (make).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
exe=$BUILD/bench/cublas_sgemm
mkdir -p "$BUILD/bench"
if [ ! -x "$exe" ] || [ bench/libs/sgemm.cu -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$exe" bench/libs/sgemm.cu -lcublas -ldl || exit 1
fi
"$TOOL" run "$exe" "${1:-1024}" "${2:-256}" "${3:-512}" || exit 1
exe2=$BUILD/bench/cublas_level2
if [ ! -x "$exe2" ] || [ bench/libs/level2.cu -nt "$exe2" ] || [ bench/bench.h -nt "$exe2" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$exe2" bench/libs/level2.cu -lcublas -ldl || exit 1
fi
"$TOOL" run "$exe2" "${4:-2048}"
exe3=$BUILD/bench/cublas_lt
if [ ! -x "$exe3" ] || [ bench/libs/lt.cu -nt "$exe3" ] || [ bench/bench.h -nt "$exe3" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -o "$exe3" bench/libs/lt.cu -lcublasLt -lcublas -ldl || exit 1
fi
"$TOOL" run "$exe3" "${5:-512}"
