#!/usr/bin/env bash
# tests/libs/run.sh [--native] [name...] — the CUDA math libraries' tests
# (tests/libs/README.md).
#
# Every tests/libs/NAME.cu is a program that uses NVIDIA's library API
# (cuBLAS, cuFFT, cuRAND: the prefix of NAME) and checks itself.  It is built with
# nvcc against NVIDIA's headers and libraries, as a program anywhere would
# be, compiled once (-O2: the host references are most of some programs'
# time at nvcc's default -O0) and linked twice: with -cudart shared (NAME) and with nvcc's default static
# runtime (NAME.static: NVIDIA's runtime inside the program, our libcuda under it),
# and built a third time by metalcuda's own nvcc against metalcuda's headers
# (NAME.mc: the source path, a Mac user's),
# into $BUILD/tests/libs (rebuilt when a source is newer), and run through
# `bin/metalcuda run`, which puts metalcuda's lib/ (libcublas.so.13,
# libcurand.so.10 ...) on
# the library path.  One line per program: PASS/FAIL/SKIP (tests/run.sh).
#
#   --native   run the same binaries on NVIDIA's libraries and GPU (the H200)
#   MC_TEST_FULL=1   pass --full to the programs: their heavier sweeps
#
# Without nvcc, or without our library (built only with a clang that has
# the NVPTX back end, see the Makefile), a program is a SKIP.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/in_order.sh
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TIMEOUT=${MC_LIBS_TIMEOUT:-300}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
export METALCUDA_CACHE=${METALCUDA_CACHE:-$PWD/$BUILD/test-cache}
native=0
names=()
for a in "$@"; do
   case $a in
   --native) native=1 ;;
   -*) echo "usage: $0 [--native] [name...]" >&2; exit 2 ;;
   *) names+=("$(basename "$a" .cu)") ;;
   esac
done
if [ ${#names[@]} -eq 0 ]; then
   for f in tests/libs/*.cu; do names+=("$(basename "$f" .cu)"); done
fi
OUT=$BUILD/tests/libs
mkdir -p "$OUT"
args=()
[ -n "${MC_TEST_FULL:-}" ] && args=(--full)

# Without NVIDIA's nvcc (a Mac) only the NAME.mc builds run.
have_nvcc=1
if ! command -v "$NVCC" >/dev/null 2>&1; then
   have_nvcc=0
   for n in "${names[@]}"; do echo "SKIP $n: NVIDIA's nvcc not found (NAME.mc still runs)"; done
   if [ $native -eq 1 ]; then exit 0; fi
fi
# Each program is compiled once (nvcc -c, two at a time) and linked per
# runtime: the runtime is chosen at link time only.
deps=(tests/libs/oracle.h tests/libs/transfer.h tests/libs/fft_oracle.h tests/libs/curand_expected.h
   tests/libs/curand_sobol_expected.h tests/libs/curand_mtgp32_expected.h tests/libs/curand_mtgp32_single_expected.h
   tests/libs/curand_poisson_expected.h
   tests/libs/curand_device_dist_expected.h tests/libs/curand_mt19937_expected.h
   tests/libs/curand_poissonmethod_expected.h tests/libs/curand_poissonmethod_device_expected.h tests/libs/curand_poissonmethod_rows.h tests/libs/curand_check.h tests/libs/xt_check.h tests/cuda/check.h)
mkdir -p "$OUT/obj"
compile_one() {
   local n=$1 src=tests/libs/$1.cu o=$OUT/obj/$1.o f
   [ $have_nvcc -eq 1 ] || return 0
   if [ -f "$o" ] && [ "$o" -nt "$src" ]; then
      local fresh=1
      for f in "${deps[@]}" tests/libs/lto/$1.cu; do [ -e "$f" ] && [ "$f" -nt "$o" ] && fresh=0; done
      [ -f tests/libs/lto/$1.cu ] && [ ! -f "$OUT/$1.lto.fatbin" ] && fresh=0
      [ $fresh -eq 1 ] && return 0
   fi
   rm -f "$o"
   "$NVCC" -O2 -arch=sm_75 -c -o "$o" "$src" >"$o.log" 2>&1 || rm -f "$o"
   # device code a program reads at run time as LTO-IR (cuFFT's LTO
   # callbacks): lto/NAME.cu to NAME.lto.fatbin beside the program
   if [ -f tests/libs/lto/$1.cu ]; then
      "$NVCC" -dc -gencode arch=compute_75,code=lto_75 -gencode arch=compute_90,code=lto_90 -fatbin \
         -o "$OUT/$1.lto.fatbin" tests/libs/lto/$1.cu \
         >>"$o.log" 2>&1 || rm -f "$o"
   fi
}
# The source path (a Mac user's): the same program built by metalcuda's own
# nvcc against metalcuda's headers and libraries, NAME.mc (not with
# --native: NVIDIA's libraries are not metalcuda's).
compile_mc() {
   local n=$1 src=tests/libs/$1.cu bin=$OUT/$1.mc lib=${1%%_*} f extra=
   [ $native -eq 1 ] && return 0
   [ -e lib/lib$lib.so ] || [ -e lib/lib$lib.dylib ] || return 0
   if [ -x "$bin" ] && [ "$bin" -nt "$src" ]; then
      local fresh=1
      # metalcuda's headers too: the .mc build compiles against them
      for f in "${deps[@]}" lib/lib$lib.so lib/lib$lib.dylib include/*.h include/*/*.h; do
         [ -e "$f" ] && [ "$f" -nt "$bin" ] && fresh=0
      done
      [ $fresh -eq 1 ] && return 0
   fi
   rm -f "$bin"
   [ "$lib" = cublasLt ] && extra=-lcublas
   "$TOOL" nvcc -O2 -o "$bin" "$src" -l$lib $extra -ldl >"$bin.log" 2>&1 || rm -f "$bin"
}
running=0
for n in "${names[@]}"; do
   { compile_one "$n"; compile_mc "$n"; } &
   running=$((running + 1))
   if [ $running -ge "$(nproc 2>/dev/null || echo 2)" ]; then wait -n; running=$((running - 1)); fi
done
wait

# One program, both runtimes: prints its lines; returns 1 if one failed.
lib_case() {
   local n=$1 src obj lib v bin label log out rc last t0 fail=0
   src=tests/libs/$n.cu
   obj=$OUT/obj/$n.o
   # the library a program tests is the prefix of its name: cublas_gemm
   # links -lcublas, cufft_exec -lcufft
   lib=${n%%_*}
   if [ $native -eq 0 ] && [ ! -e lib/lib$lib.so ] && [ ! -e lib/lib$lib.dylib ]; then
      echo "SKIP $n: metalcuda's lib$lib is not built (needs clang with NVPTX: Makefile CLANG_CUDA)"
      return 0
   fi
   local variants="shared static"
   [ $native -eq 0 ] && variants="shared static mc"
   [ $have_nvcc -eq 0 ] && variants="mc"
   for v in $variants; do
      bin=$OUT/$n
      [ $v = static ] && bin=$OUT/$n.static
      [ $v = mc ] && bin=$OUT/$n.mc
      label=$(basename "$bin")
      if [ $v = mc ]; then
         if [ ! -x "$bin" ]; then
            echo "FAIL $label: metalcuda's nvcc failed"
            head -20 "$bin.log" 2>/dev/null | sed 's/^/   /'
            fail=1
            continue
         fi
      elif [ ! -f "$obj" ]; then
         echo "FAIL $label: nvcc failed"
         head -20 "$obj.log" 2>/dev/null | sed 's/^/   /'
         fail=1
         continue
      fi
      if [ $v != mc ] && { [ ! -x "$bin" ] || [ "$obj" -nt "$bin" ]; }; then
         if ! log=$("$NVCC" -cudart $v -arch=sm_75 -o "$bin" "$obj" -l$lib -ldl 2>&1); then
            echo "FAIL $label: nvcc failed to link"
            printf '%s\n' "$log" | head -20 | sed 's/^/   /'
            fail=1
            continue
         fi
      fi
      t0=$SECONDS
      if [ $native -eq 1 ]; then
         out=$(timeout "$TIMEOUT" "$bin" "${args[@]}" 2>&1)
      else
         out=$(timeout "$TIMEOUT" "$TOOL" run "$bin" "${args[@]}" 2>&1)
      fi
      rc=$?
      last=$(printf '%s\n' "$out" | grep -E '^(PASS|FAIL) ' | tail -1)
      if [ $rc -eq 0 ] && [[ $last == "PASS $n"* ]]; then
         echo "PASS $label${last#PASS $n} ($((SECONDS - t0)) s)"
      else
         echo "FAIL $label: exit status $rc${last:+, $last}"
         printf '%s\n' "$out" | tail -25 | sed 's/^/   /'
         fail=1
      fi
   done
   return $fail
}

# One program per core (each its shared then its static build: the second
# finds the first's kernels in the cache), printed in name order
# (tests/tools/in_order.sh).
fail=0
run_in_order lib_case "$(nproc 2>/dev/null || echo 2)" "" "${names[@]}" || fail=1
exit $fail
