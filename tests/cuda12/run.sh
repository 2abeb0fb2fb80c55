#!/usr/bin/env bash
# tests/cuda12/run.sh — the cuda12 layer: CUDA 12 programs on metalcuda.
#
#  1. runtime_smoke.c (registers a fatbin itself and calls the runtime API)
#     linked against NVIDIA's CUDA 12 libcudart_static.a (run through
#     bin/metalcuda run) and libcudart.so.12 (only our libcuda.so.1 before
#     it on the library path): NVIDIA's CUDA 12 runtime on our driver;
#  2. the programs tests/cuda12/programs lists (tests/cuda/NAME.cu), built
#     against CUDA 12.9 with the toolkit toolkit.sh assembles from the
#     wheels, each run on metalcuda's libcudart.so.12 (NAME.cuda12) and on
#     NVIDIA's libcudart.so.12 over our libcuda (NAME.cuda12.nvrt), through
#     tests/cuda/run.sh --cuda12.
# Prints PASS/FAIL/SKIP lines for tests/run.sh.
#
# The wheels nvidia-cuda-runtime-cu12 and nvidia-cuda-nvcc-cu12 are
# installed under MC_CUDA12_WHEELS (default $BUILD/cuda12/pip; .ci/run puts
# them there):
#    pip install --no-deps --target build/cuda12/pip \
#       nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86
# MC_CUDA12_RUNTIME=DIR overrides where part 1 finds the two libraries.
# Without the wheels (or without nvcc or a C compiler) every case is a SKIP
# that says so.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
CC=${CC:-cc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
TIMEOUT=${MC_CUDA_TIMEOUT:-120}
wheels=${MC_CUDA12_WHEELS:-$BUILD/cuda12/pip}
dir=${MC_CUDA12_RUNTIME:-$wheels/nvidia/cuda_runtime/lib}
programs=()
mapfile -t programs < <(sed -n 's/^\([a-z0-9_][a-z0-9_]*\).*/\1/p' tests/cuda12/programs)
cases=(runtime_smoke.static runtime_smoke.shared)
for p in "${programs[@]}"; do cases+=("$p.cuda12" "$p.cuda12.nvrt"); done
skip() { for c in "${cases[@]}"; do echo "SKIP $c: $1"; done; exit 0; }
[ -f "$dir/libcudart_static.a" ] && [ -e "$dir/libcudart.so.12" ] ||
   skip "no CUDA 12 runtime at $dir (install the wheels: tests/cuda12/README.md; .ci/run does)"
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

# ---- 1. NVIDIA's CUDA 12 runtime, registering a fatbin by hand ----
rc=0
if ! { "$NVCC" -fatbin -arch=compute_75 tests/cuda12/kernel.cu -o "$out/kernel.fatbin" &&
       "$CC" -O1 -Wall -Wextra -o "$out/runtime_smoke.static" tests/cuda12/runtime_smoke.c \
          "$dir/libcudart_static.a" -ldl -lpthread -lrt &&
       "$CC" -O1 -Wall -Wextra -o "$out/runtime_smoke.shared" tests/cuda12/runtime_smoke.c "$dir/libcudart.so.12"; } \
      >"$log" 2>&1; then
   for c in runtime_smoke.static runtime_smoke.shared; do
      echo "FAIL $c: build failed: $(head -n 3 "$log" | tr '\n' ' ')"
   done
   rc=1
else
   drv=$(bash tests/tools/driver_only_dir.sh "$BUILD" "$(dirname "$TOOL")/../lib")
   for c in runtime_smoke.static runtime_smoke.shared; do
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
fi

# ---- 2. programs built against CUDA 12.9, on both runtimes ----
tk=$BUILD/cuda12/toolkit
if [ ! -x "$tk/bin/nvcc" ] || [ -n "$(find "$wheels" -maxdepth 1 -newer "$tk/bin/nvcc" -print -quit 2>/dev/null)" ] ||
   [ tests/cuda12/toolkit.sh -nt "$tk/bin/nvcc" ]; then
   if ! NVCC=$NVCC bash tests/cuda12/toolkit.sh "$wheels" "$tk" >"$log" 2>&1; then
      for p in "${programs[@]}"; do
         echo "FAIL $p.cuda12: the CUDA 12 toolkit could not be assembled: $(tail -n 1 "$log")"
         echo "FAIL $p.cuda12.nvrt: the CUDA 12 toolkit could not be assembled"
      done
      exit 1
   fi
fi
MC_CUDA12_NVCC=$tk/bin/nvcc bash tests/cuda/run.sh --cuda12 "${programs[@]}" || rc=1
MC_CUDA12_NVCC=$tk/bin/nvcc bash tests/cuda/run.sh --cuda12 --nvidia-runtime "${programs[@]}" || rc=1
exit $rc
