#!/usr/bin/env bash
# tools/drvtrace/build.sh OUTDIR — builds the tracing libcuda.so.1 and the
# probe into OUTDIR.  x86-64 Linux, for a machine with NVIDIA's driver.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
python3 gen.py ../../src/api/driver/entries.h "$gen/drvtrace_gen.h"
cc -O1 -g -Wall -Wextra -fPIC -shared -I"$gen" -Wl,-soname,libcuda.so.1 -o "$out/libcuda.so.1" drvtrace.c -ldl -pthread
cc -O1 -g -Wall -Wextra -o "$out/probe" probe.c -ldl
echo "built in $out"
