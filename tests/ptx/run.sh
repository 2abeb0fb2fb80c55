#!/usr/bin/env bash
# tests/ptx/run.sh — runs every PTX conformance case through metalcuda's
# driver API and compares with the outputs an NVIDIA GPU produced.
# Prints PASS/FAIL/SKIP per case (counted by tests/run.sh).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
runner=$BUILD/tests/ptx/ptx_run
if [ ! -x "$runner" ]; then
   echo "FAIL ptx: $runner is not built (make unit)"
   exit 1
fi
# Cases run in parallel batches: each one compiles a kernel library.
ls tests/ptx/cases/*.ptx | xargs -n 16 -P "$(nproc)" "$runner"
