#!/usr/bin/env bash
# tests/ptx/corpus/big.sh [OUTDIR] — the large-corpus check (make test-full;
# bench/translate.sh reuses its output).
#
# Compiles cccl_big.cu (most CUB device algorithms and common Thrust ones
# over 8- to 64-bit integers and float: about 20 MB of PTX, 380 kernels)
# with nvcc -ptx for sm_75 into OUTDIR (default build/ptx-corpus-big; kept
# while newer than its source: nvcc needs about 5 minutes), then runs
# ptx_corpus on it: every kernel must translate, and the MSL of every
# MC_CORPUS_COMPILE_EVERY-th kernel (default 1: all) must compile on the
# Metal device.  Prints PASS/FAIL lines (tests/run.sh counts them).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
BUILD=${BUILD:-build}
out=${1:-$root/$BUILD/ptx-corpus-big}
NVCC=${NVCC:-nvcc}
tool=$root/$BUILD/tests/tools/ptx_corpus
if ! command -v "$NVCC" >/dev/null 2>&1; then
   echo "SKIP corpus cccl_big: nvcc not found"
   exit 0
fi
if [ ! -x "$tool" ]; then
   echo "FAIL corpus cccl_big: $tool is not built (make unit)"
   exit 1
fi
mkdir -p "$out"
dst=$out/cccl_big_sm75.ptx
if ! [ "$dst" -nt "$here/cccl_big.cu" ]; then
   if ! "$NVCC" -ptx -arch=sm_75 -O2 "$here/cccl_big.cu" -o "$dst.tmp" 2>"$dst.log"; then
      echo "FAIL corpus cccl_big: nvcc failed (see $dst.log)"
      rm -f "$dst.tmp"
      exit 1
   fi
   mv "$dst.tmp" "$dst"
fi
"$tool" --compile="${MC_CORPUS_COMPILE_EVERY:-1}" --known-gaps="$here/known_gaps.txt" "$dst"
