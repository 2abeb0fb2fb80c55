#!/usr/bin/env bash
# tests/ptx/gen.sh — run on a machine with an NVIDIA GPU and the CUDA
# toolkit: builds ptx_run against NVIDIA's driver and writes each case's
# expected output (the "// expect:" lines) from what the GPU computed.
#
#   tests/ptx/gen.sh [CASE.ptx...]     (default: every case)
#
# Commit the rewritten cases: they are the reference metalcuda is held to.
set -euo pipefail
cd "$(dirname "$0")/../.."
CUDA=${CUDA_HOME:-/usr/local/cuda}
out=${TMPDIR:-/tmp}/ptx_run_nvidia
cc -std=c11 -O2 -DPTX_RUN_NVIDIA -I"$CUDA/include" tests/ptx/ptx_run.c -o "$out" \
   -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcuda -lm
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
if [ $# -eq 0 ]; then set -- tests/ptx/cases/*.ptx; fi
# One process per case: a case that faults ends its CUDA context, and with
# it every later case of the same process.
rc=0
for c in "$@"; do "$out" --generate "$c" || rc=1; done
exit $rc
