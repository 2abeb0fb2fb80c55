#!/usr/bin/env bash
# examples/demo.sh — `make demo`: builds examples/vector_add.cu with
# `nvcc -cudart shared` into $BUILD/examples/ and runs it through
# `bin/metalcuda run`, showing its output.  Without NVIDIA's nvcc it builds
# it with metalcuda's own (`bin/metalcuda nvcc`, over clang) and runs the
# program directly, as its run path finds our libcudart.
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
if ! command -v "$NVCC" >/dev/null 2>&1; then
   # no NVIDIA toolkit: metalcuda's own nvcc
   exe=$BUILD/examples/vector_add.metalcuda-nvcc
   if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$TOOL" -nt "$exe" ]; then
      mkdir -p "$BUILD/examples"
      echo "(NVIDIA's nvcc was not found: using metalcuda's own)"
      echo "\$ $TOOL nvcc $src -o $exe"
      "$TOOL" nvcc "$src" -o "$exe" || exit 1
   fi
   echo "\$ $exe"
   "$exe"
   exit
fi
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
   mkdir -p "$BUILD/examples"
   echo "\$ $NVCC -cudart shared $src -o $exe"
   "$NVCC" -cudart shared "$src" -o "$exe" || exit 1
fi
echo "\$ $TOOL run $exe"
"$TOOL" run "$exe"
