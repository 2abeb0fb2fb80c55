#!/bin/bash
# native-run/curand/run.sh: build and run the probe on the H200 (files to $OUT)
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
nvcc --version | tail -2 >> $OUT/gpu.txt
nvcc -O2 -o probe probe.cu -lcurand && ./probe
