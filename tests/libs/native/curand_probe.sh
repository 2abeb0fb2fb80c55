#!/bin/bash
# tests/libs/native/curand_probe.sh — on the H200 (the run tool, $OUT set):
# builds curand_probe.cu with nvcc against NVIDIA's libcurand and runs it;
# probe.txt (and raw_*.bin) come back under $OUT.  curand_expected.h was
# written from its probe.txt (tests/libs/README.md).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
nvcc --version | tail -2 >> "$OUT/gpu.txt"
nvcc -O2 -o "${TMPDIR:-/tmp}/curand_probe" curand_probe.cu -lcurand && "${TMPDIR:-/tmp}/curand_probe"
