#!/usr/bin/env bash
# tests/cuda12/run.sh — NVIDIA's CUDA 12 runtime on metalcuda's driver.
#
# runtime_smoke.c (registers a fatbin itself and calls the runtime API, so
# it needs no CUDA 12 compiler) is linked against NVIDIA's CUDA 12
# libcudart_static.a (run through bin/metalcuda run) and libcudart.so.12
# (run with only our libcuda.so.1 before it on the library path); its
# kernel is kernel.cu built by nvcc -fatbin.  Prints PASS/FAIL/SKIP lines
# for tests/run.sh.
#
# MC_CUDA12_RUNTIME=DIR names a directory holding both libraries, e.g. the
# lib/ of the nvidia-cuda-runtime-cu12 wheel:
#    pip download --no-deps nvidia-cuda-runtime-cu12 && unzip nvidia_cuda_runtime_cu12-*.whl
#    MC_CUDA12_RUNTIME=$PWD/nvidia/cuda_runtime/lib bash tests/run.sh cuda12
# Without it (or without nvcc or a C compiler) both cases are SKIPs.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
CC=${CC:-cc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
TIMEOUT=${MC_CUDA_TIMEOUT:-120}
dir=${MC_CUDA12_RUNTIME:-}
cases=(runtime_smoke.static runtime_smoke.shared)
skip() { for c in "${cases[@]}"; do echo "SKIP $c: $1"; done; exit 0; }
[ -n "$dir" ] || skip "MC_CUDA12_RUNTIME is not set (a directory with NVIDIA's CUDA 12 libcudart_static.a and libcudart.so.12: tests/cuda12/run.sh says where to get them)"
[ -f "$dir/libcudart_static.a" ] && [ -e "$dir/libcudart.so.12" ] || skip "$dir lacks libcudart_static.a or libcudart.so.12"
command -v "$NVCC" >/dev/null 2>&1 || skip "nvcc not found"
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler ($CC)"
if [ ! -x "$TOOL" ]; then
   for c in "${cases[@]}"; do echo "FAIL $c: $TOOL is missing (make all builds it)"; done
   exit 1
fi
out=$BUILD/tests/cuda12
mkdir -p "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { "$NVCC" -fatbin -arch=compute_75 tests/cuda12/kernel.cu -o "$out/kernel.fatbin" &&
       "$CC" -O1 -Wall -Wextra -o "$out/runtime_smoke.static" tests/cuda12/runtime_smoke.c \
          "$dir/libcudart_static.a" -ldl -lpthread -lrt &&
       "$CC" -O1 -Wall -Wextra -o "$out/runtime_smoke.shared" tests/cuda12/runtime_smoke.c "$dir/libcudart.so.12"; } \
      >"$log" 2>&1; then
   for c in "${cases[@]}"; do echo "FAIL $c: build failed: $(head -n 3 "$log" | tr '\n' ' ')"; done
   exit 1
fi
drv=$(bash tests/tools/driver_only_dir.sh "$BUILD" "$(dirname "$TOOL")/../lib")
rc=0
for c in "${cases[@]}"; do
   if [ "$c" = runtime_smoke.static ]; then
      timeout "$TIMEOUT" "$TOOL" run "$out/$c" "$out/kernel.fatbin" >"$log" 2>&1
   else
      LD_LIBRARY_PATH="$drv:$dir" timeout "$TIMEOUT" "$out/$c" "$out/kernel.fatbin" >"$log" 2>&1
   fi
   status=$?
   verdict=$(grep -E '^(PASS|FAIL) runtime_smoke' "$log" | tail -n 1)
   if [ $status -eq 0 ] && [[ $verdict == PASS* ]]; then
      echo "PASS $c${verdict#PASS runtime_smoke}"
   else
      echo "FAIL $c: exited with status $status and ${verdict:-no PASS/FAIL line}"
      rc=1
   fi
   grep -vE '^(PASS|FAIL) ' "$log" | sed 's/^/    /'
done
exit $rc
