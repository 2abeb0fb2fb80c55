#!/usr/bin/env bash
# tests/run.sh [layer...] — runs the test layers and counts results.
#
# Every layer prints lines "PASS name", "FAIL name: why" or "SKIP name: why".
# This script shows failures and skips, then a per-layer summary, and ends
# with the line "N passed, N failed" (skips are counted and shown, never
# counted as passes).  Exit status is non-zero if anything failed.
#
# Layers: runner unit macos msl ptx cuda static nvrt cuda12 driver hip libs asan
# (default: all these), validate, corpus, cuda-asan, sweep, cuda-valgrind.  runner tests the layer runners
# themselves on fixtures (tests/runner/): every count below rests on them.
# macos checks what can be checked here of the macOS build: the assembly
# files for macOS, the C sources against stand-in macOS headers
# (tests/macos/run.sh says what that cannot catch).
# libs runs the math libraries' programs (tests/libs: cuBLAS and cuRAND
# through metalcuda's libcublas and libcurand, built with nvcc against NVIDIA's headers) and checks
# the libraries' generated stubs and status tables are current.
# validate reruns the CUDA programs under METALCUDA_VALIDATE=1 (the cuda
# layer reruns the warp-synchronous ones so); driver builds
# them with metalcuda's own nvcc (tests/toolchain) and runs them; hip builds
# the HIP programs of tests/hip with metalcuda's hipcc and runs them.  MC_TEST_FULL=1
# adds the heavy sweeps and the corpus, cuda-asan and sweep layers (make
# test-full), and validate (three minutes on two cores: make test stays
# near its budget); sweep is the fp64 sweep against an NVIDIA GPU's digests.  asan reruns unit and msl from build-asan
# (make asan-build), under ASan+UBSan.  static runs the CUDA programs built
# with nvcc's default static runtime (NVIDIA's runtime inside the program,
# our libcuda under it); nvrt runs the -cudart shared builds on NVIDIA's
# libcudart.so.13 from the toolkit over our libcuda; cuda12 runs CUDA 12
# programs: a C program on NVIDIA's CUDA 12 runtime, and tests/cuda programs
# built against CUDA 12.9 on metalcuda's and NVIDIA's libcudart.so.12 (the
# wheels .ci/run installs under build/cuda12; SKIP without them).  cuda-asan runs the CUDA programs with
# the ASan+UBSan build of our libraries (make asan-libs); cuda-valgrind runs
# them under valgrind, only when asked for by name (about 3 minutes a
# program on 2 cores).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export MC_TEST_SRCDIR=$PWD/tests
export METALCUDA_ROOT=$PWD
# Tests use a private cache so a stale user cache cannot hide a bug, and a
# second run inside the suite can prove cache hits.
export METALCUDA_CACHE=${METALCUDA_CACHE:-$PWD/$BUILD/test-cache}
layers=("$@")
[ ${#layers[@]} -eq 0 ] && layers=(runner unit macos msl ptx cuda static nvrt cuda12 driver hip libs asan)
# The large PTX corpus (nvcc alone needs minutes) only in the full run.
[ "$#" -eq 0 ] && [ -n "${MC_TEST_FULL:-}" ] && layers+=(validate corpus cuda-asan sweep)

total_pass=0 total_fail=0 total_skip=0
# every FAIL line again at the end: CI shows only a log's tail
failures=$(mktemp)
log=$(mktemp)
trap 'rm -f "$log" "$failures"' EXIT

run_layer() {
   local name=$1; shift
   local start=$SECONDS
   "$@" >"$log" 2>&1
   local rc=$?
   local p f s
   p=$(grep -c '^PASS ' "$log")
   f=$(grep -c '^FAIL ' "$log")
   s=$(grep -c '^SKIP ' "$log")
   # A layer that crashed without reporting a failure still fails.
   if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
      echo "FAIL $name: runner exited with status $rc" >>"$log"
      f=1
   fi
   grep -E '^(FAIL|SKIP) ' "$log" | sed "s/^/  [$name] /"
   grep -E '^FAIL ' "$log" | cut -c1-240 | sed "s/^/  [$name] /" >>"$failures"
   if [ "$f" -ne 0 ] && [ -n "${MC_TEST_VERBOSE:-}" ]; then cat "$log"; fi
   printf '%-5s %4d passed, %3d failed, %3d skipped  (%ds)\n' "$name" "$p" "$f" "$s" $((SECONDS - start))
   total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + s))
}

# The unit layer proper: the unit tests, `metalcuda prepare` and the
# software device's use of it (tests/unit/prepared.sh), README.md's runtime and driver API
# tables checked against what the code gives now (tools/gen_api_table.py), and
# src/api/driver/procaddress.h against procaddress.tsv, and
# tests/tools/cuabi_list.h (the ABI facts test_cuabi compares with NVIDIA's
# headers) against src/api/cuabi.h.
unit_and_table_layer() {
   local rc=0
   bash tests/unit/run.sh || rc=1
   bash tests/unit/prepared.sh || rc=1
   if msg=$(python3 tools/gen_api_table.py --check 2>&1); then
      echo "PASS api_table"
   else
      echo "FAIL api_table: $msg"
      rc=1
   fi
   if msg=$(python3 tools/gen_public_headers.py --check 2>&1); then
      echo "PASS public_headers"
   else
      echo "FAIL public_headers: $msg"
      rc=1
   fi
   if msg=$(python3 tools/gen_curand_jumps.py --check 2>&1); then
      echo "PASS curand_jumps"
   else
      echo "FAIL curand_jumps: $msg"
      rc=1
   fi
   # libcurand's MT19937 jump polynomials (about 10 s)
   if msg=$(python3 tools/mt19937_subseq_search.py --check 2>&1); then
      echo "PASS mt19937_jump"
   else
      echo "FAIL mt19937_jump: $msg"
      rc=1
   fi
   if msg=$(python3 tools/gen_procaddress.py --check 2>&1); then
      echo "PASS procaddress_table"
   else
      echo "FAIL procaddress_table: $msg (run tools/gen_procaddress.py)"
      rc=1
   fi
   if msg=$(python3 tools/gen_cuabi_list.py --check 2>&1); then
      echo "PASS cuabi_list"
   else
      echo "FAIL cuabi_list: $msg"
      rc=1
   fi
   return $rc
}

# use_tls=0: LeakSanitizer misreads the dynamic TLS of dlopen'ed kernel
# libraries with this glibc and crashes at exit; heap, globals and stacks
# are still scanned for leaks.
# The math libraries: their programs, and stubs.c / STATUS.md current
# (tools/gen_libs_stubs.py), cuBLAS's headers declaring what it implements
# (tools/gen_cublas_header.py) and its legacy API current
# (tools/gen_cublas_legacy.py), those declarations the same as NVIDIA's
# (tests/libs/check_decls.py).
libs_layer() {
   local rc=0
   bash tests/libs/run.sh || rc=1
   if msg=$(python3 tools/gen_libs_stubs.py --check 2>&1); then
      echo "PASS libs_stubs"
   else
      echo "FAIL libs_stubs: $msg"
      rc=1
   fi
   if msg=$(python3 tools/gen_cublas_header.py --check 2>&1) &&
      msg=$(python3 tools/gen_cublas_legacy.py --check 2>&1); then
      echo "PASS libs_cublas_header"
   else
      echo "FAIL libs_cublas_header: $msg"
      rc=1
   fi
   python3 tests/libs/check_decls.py || rc=1
   if [ ! -e lib/libcublas.so.13 ]; then
      echo "SKIP libs_status: lib/libcublas.so.13 is not built"
   elif msg=$(python3 tools/gen_libs_stubs.py --table --check 2>&1); then
      echo "PASS libs_status"
   else
      echo "FAIL libs_status: $msg"
      rc=1
   fi
   return $rc
}

asan_layer() {
   if [ ! -d build-asan/tests/unit ]; then
      echo "FAIL asan: build-asan is not built (make asan-build)"
      return 1
   fi
   local rc=0
   BUILD=build-asan LSAN_OPTIONS=use_tls=0 bash tests/unit/run.sh || rc=1
   BUILD=build-asan MSL_OLD_CXX=0 LSAN_OPTIONS=use_tls=0 bash tests/msl/run.sh || rc=1
   return $rc
}

# rerun_as SUFFIX COMMAND...: runs a layer's runner on some cases again
# (another compiler, another setting), each result line's case named
# NAME@SUFFIX so that it counts apart from the first run; the runner's
# status.
rerun_as() {
   local suffix=$1
   shift
   "$@" | sed -E "s/^(PASS|FAIL|SKIP) ([^ :]+)/\1 \2@$suffix/"
   return "${PIPESTATUS[0]}"
}

# The CUDA programs, then the warp-synchronous ones again under validation:
# there a lane-form kernel runs one lane per invocation as fibers, and its
# lockstep rests on the warp meets the one-lane build keeps (emit_lanes.c);
# the whole validate layer runs under MC_TEST_FULL.  Then the
# lane-form programs with lane loops masked lane by lane (NAME@lanes-masked;
# src/metal/soft/compile.c lanes_by_runs: the default walks runs of active
# lanes), so both forms are tested on any machine.
cuda_layer()
{
   local rc=0
   bash tests/cuda/run.sh || rc=1
   if [ -z "${MC_TEST_FULL:-}" ]; then
      bash tests/cuda/run.sh --validate warp_sync warp_ops || rc=1
   fi
   METALCUDA_SOFT_LANE_LOOPS=masked rerun_as lanes-masked \
      bash tests/cuda/run.sh lane_divergence block_reduce warp_sync tile_transpose || rc=1
   return $rc
}

# The ptx layer, then, where the plain clang++ is older than the newest
# clang++-NN (tests/tools/old_cxx.sh), a few cases again with it, named
# NAME@clang++NN: every kernel compiles the whole prelude, which must
# build with the fallback compiler too (Debian's clang 14 has no bool
# vectors; the prelude's texture code once needed them).
ptx_layer() {
   local rc=0 old
   bash tests/ptx/run.sh || rc=1
   . tests/tools/old_cxx.sh
   old=$(old_cxx_major)
   if [ -n "$old" ]; then
      METALCUDA_CXX=clang++ rerun_as "clang++$old" \
         bash tests/ptx/run.sh tests/ptx/cases/{add_f16x2,f64_nan_rules,fma_rn_f16,cvt_rn_bf16_f32,atom64_global_add_f64}.ptx ||
         rc=1
   fi
   return $rc
}

for l in "${layers[@]}"; do
   case $l in
   runner) run_layer runner bash tests/runner/run.sh ;;
   unit) run_layer unit unit_and_table_layer ;;
   macos) run_layer macos bash tests/macos/run.sh ;;
   msl)  run_layer msl bash tests/msl/run.sh ;;
   ptx)  run_layer ptx ptx_layer ;;
   cuda) run_layer cuda cuda_layer ;;
   static) run_layer static bash tests/cuda/run.sh --static ;;
   nvrt) run_layer nvrt bash tests/cuda/run.sh --nvidia-runtime ;;
   cuda12) run_layer cuda12 bash tests/cuda12/run.sh ;;
   driver) run_layer driver bash tests/toolchain/run.sh ;;
   hip) run_layer hip bash tests/hip/run.sh ;;
   libs) run_layer libs libs_layer ;;
   validate) run_layer validate bash tests/cuda/run.sh --validate ;;
   asan) run_layer asan asan_layer ;;
   corpus) run_layer corpus bash tests/ptx/corpus/big.sh ;;
   cuda-asan) run_layer cuda-asan bash tests/cuda/run.sh --asan ;;
   sweep) run_layer sweep bash tests/ptx/sweep.sh ;;
   cuda-valgrind) run_layer cuda-valgrind bash tests/cuda/run.sh --valgrind ;;
   *) echo "unknown layer $l"; exit 2 ;;
   esac
done
[ "$total_skip" -gt 0 ] && echo "$total_skip skipped"
if [ -s "$failures" ]; then echo "failed:"; cat "$failures"; fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
