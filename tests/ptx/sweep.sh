#!/usr/bin/env bash
# tests/ptx/sweep.sh — the sweep layer of make test-full: runs the fp64
# sweep (tests/ptx/f64_sweep.c) through metalcuda's driver API and compares
# each chunk's digest with the one an NVIDIA GPU produced
# (tests/ptx/sweep/f64_digests.txt, written by tests/ptx/gen_sweep.sh).
# Prints PASS/FAIL per operation (counted by tests/run.sh); an operation
# metalcuda cannot translate is a FAIL.
#
# MC_SWEEP_CHUNKS: chunks of 65536 elements per operation (default: all
# the digests cover, 64, i.e. 2^22 per operation: about 25 s on 2 cores
# with the kernels cached, plus about 30 s to compile the 37 kernels cold).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
runner=$BUILD/tests/ptx/f64_sweep
if [ ! -x "$runner" ]; then
   echo "FAIL sweep: $runner is not built (make tests-build)"
   exit 1
fi
exec "$runner" tests/ptx/sweep/f64_digests.txt
