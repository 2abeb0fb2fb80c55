#!/usr/bin/env bash
# examples/demo.sh — `make demo`: builds examples/vector_add.cu with
# `nvcc -cudart shared` into $BUILD/examples/ and runs it through
# `bin/metalcuda run`, showing its output.
#
# Environment: BUILD (default build), NVCC (nvcc), METALCUDA_BIN (default
# bin/metalcuda).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
src=examples/vector_add.cu exe=$BUILD/examples/vector_add

if [ ! -x "$TOOL" ]; then
   echo "demo: $TOOL is missing: run 'make' first" >&2
   exit 1
fi
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
   if ! command -v "$NVCC" >/dev/null 2>&1; then
      echo "demo: nvcc (NVIDIA's CUDA compiler) was not found, so the example cannot be built." >&2
      echo "      Install the CUDA toolkit (no GPU needed) or set NVCC=/path/to/nvcc, then run 'make demo' again." >&2
      exit 1
   fi
   mkdir -p "$BUILD/examples"
   echo "\$ $NVCC -cudart shared $src -o $exe"
   "$NVCC" -cudart shared "$src" -o "$exe" || exit 1
fi
echo "\$ $TOOL run $exe"
"$TOOL" run "$exe"
