#!/bin/bash
# devrun.sh — on a machine with an NVIDIA GPU: runs the bundle (bins.tar.xz:
# shim/, static/, shared/, extra programs) under drvtrace and packs the logs
# into $OUT/logs.tar.xz.  Every program's output is kept beside its log.
set -u
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
W=/tmp/dtw
L=/tmp/logs
rm -rf "$W" "$L"
mkdir -p "$W" "$L"/{probe,static,shared,extra}
tar xJf "$B/bins.tar.xz" -C "$W"
REAL=${DRVTRACE_REAL:-$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')}
TK=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")/../lib64
{
   echo "bundle $B"; date -u
   nvidia-smi --query-gpu=name,driver_version,pci.bus_id,uuid --format=csv 2>&1
   nvcc --version 2>&1 | tail -2
   ls -la "$TK"/libcudart* 2>&1
   echo "REAL=$REAL"; ls -la "$REAL" "$(readlink -f "$REAL")"
} >"$L/info.txt" 2>&1
export DRVTRACE_REAL=$REAL
SHIM=$W/shim
run() {   # run DIR TAG EXTRA_LIBPATH PROGRAM [env...]
   local dir=$1 tag=$2 lp=$3 prog=$4
   shift 4
   (cd "$(dirname "$prog")" && env LD_LIBRARY_PATH="$SHIM${lp:+:$lp}" DRVTRACE_DIR="$L/$dir" DRVTRACE_TAG="$tag" "$@" \
      timeout 60 "$prog" >"$L/$dir/$tag.out" 2>&1; echo "exit status $?" >>"$L/$dir/$tag.out")
}
export -f run
export L SHIM TK W
# the probe through the shim (with the integrity capture) and straight on the driver
run probe probe "" "$W/probe" DRVTRACE_CAPTURE=1
(cd "$W" && timeout 60 ./probe >"$L/probe/probe.direct.out" 2>&1)
# one static program with the integrity capture, one with the check itself logged
run extra saxpy.capture "" "$W/static/saxpy" DRVTRACE_CAPTURE=1
run extra saxpy.patched "" "$W/static/saxpy" DRVTRACE_PATCH_INTEGRITY=1
run extra saxpy.eager "" "$W/static/saxpy" CUDA_MODULE_LOADING=EAGER
for p in rt12.static rt13.static rdc.static; do run extra "$p" "" "$W/$p"; done
run extra rt12.shared "$W/cu12" "$W/rt12.shared"
run extra rdc.shared "$TK" "$W/rdc.shared"
# every tests/cuda program, both runtimes, 8 at a time
ls "$W/static" | xargs -P 8 -I{} bash -c 'run static {} "" "$W/static/{}"'
ls "$W/shared" | xargs -P 8 -I{} bash -c 'run shared {} "$TK" "$W/shared/{}"'
grep -h -E "^(PASS|FAIL|SKIP) |exit status" "$L"/*/*.out | sort | uniq -c | sort -rn | head -50 >"$L/summary.txt"
for f in "$L"/*/*.out; do echo "$(basename "$f"): $(grep -E '^(PASS|FAIL|SKIP) ' "$f" | tail -1) $(tail -1 "$f")"; done >>"$L/summary.txt"
tar cJf "$OUT/logs.tar.xz" -C /tmp logs
cp "$L/summary.txt" "$L/info.txt" "$L/probe/probe.out" "$L/probe/probe.direct.out" "$OUT/"
du -sh "$L" "$OUT"/*
