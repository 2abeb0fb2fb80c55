#!/usr/bin/env bash
# tests/ptx/gen_sweep.sh — run on a machine with an NVIDIA GPU and the CUDA
# toolkit: builds f64_sweep against NVIDIA's driver and writes the digests
# of the fp64 sweep (tests/ptx/sweep/f64_digests.txt), 2^22 elements per
# operation, then checks them once on the same GPU.
#
#   tests/ptx/gen_sweep.sh [log2N]
#
# Commit the digest file: it is the reference metalcuda is held to.
set -euo pipefail
cd "$(dirname "$0")/../.."
CUDA=${CUDA_HOME:-/usr/local/cuda}
out=${TMPDIR:-/tmp}/f64_sweep_nvidia
cc -std=c11 -O2 -DPTX_RUN_NVIDIA -I"$CUDA/include" tests/ptx/f64_sweep.c -o "$out" \
   -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcuda -lm
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$out" --generate tests/ptx/sweep/f64_digests.txt "${1:-22}"
"$out" tests/ptx/sweep/f64_digests.txt 1024
