#!/usr/bin/env bash
# bench/kernels.sh [KERNEL...] — six common kernels on metalcuda's software
# device against the same computations in plain C with OpenMP and in
# OpenCL on PoCL, on the same cores, measured in one run.  Prints ROW lines
# in bench/run.sh's format (run.sh folds them into its table):
#
#   ROW <kernel> vs OpenMP|<metalcuda time>|OpenMP <time>|<metalcuda/OpenMP>x|...
#   ROW <kernel> vs PoCL|<metalcuda time>|PoCL <time>|<PoCL/metalcuda>x|...
#
# Kernels: saxpy stencil sgemm reduce shfl hist saxpy64 (default: all).  For each
# kernel the three programs run one after the other (kernels.cu through
# bin/metalcuda, omp_kernels.c, ocl_kernels.c), then again in the reverse
# order (MC_BENCH_KERNEL_ROUNDS, default 2), so a change of machine load
# hits the three alike.  Each run warms up, times MC_BENCH_KERNEL_REPS
# repetitions (default 7), checks its result and prints the median; of a
# program's rounds the lowest median counts (other load only ever adds
# time).  A wrong result gives a FAIL row, never a ratio, and exit status
# 1.  Without PoCL the PoCL rows say SKIP and why.  Exit status 77: a
# prerequisite (nvcc, bin/metalcuda, a C compiler with OpenMP) is missing.
#
# Threads: MC_BENCH_THREADS (default: every online CPU) for all three —
# METALCUDA_THREADS, OMP_NUM_THREADS and PoCL's thread count are set from it.
#
# Environment: BUILD (build), NVCC (nvcc), NVCC_ARCH (sm_75), CC (cc),
# METALCUDA_BIN (bin/metalcuda), MC_BENCH_KERNEL_REPS (7),
# MC_BENCH_KERNEL_ROUNDS (2), MC_BENCH_THREADS.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
CC=${CC:-cc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
reps=${MC_BENCH_KERNEL_REPS:-7}
rounds=${MC_BENCH_KERNEL_ROUNDS:-2}
threads=${MC_BENCH_THREADS:-$(nproc 2>/dev/null || echo 1)}
kernels=${*:-saxpy stencil sgemm reduce shfl hist saxpy64}
out=$BUILD/bench
mkdir -p "$out"

skip() { echo "bench/kernels: skipped: $*" >&2; exit 77; }
command -v "$NVCC" >/dev/null 2>&1 || skip "nvcc not found (set NVCC or put it on PATH)"
[ -x "$TOOL" ] || skip "$TOOL is missing: run 'make' first"
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler ($CC)"

# $1 = output, the rest = its sources: true when it needs building.
stale() {
   local exe=$1 f; shift
   [ -x "$exe" ] || return 0
   for f in "$@"; do [ "$f" -nt "$exe" ] && return 0; done
   return 1
}

if stale "$out/kernels" bench/kernels.cu bench/kernels.h bench/bench.h; then
   "$NVCC" -cudart shared -arch="$NVCC_ARCH" -O2 -Ibench bench/kernels.cu -o "$out/kernels" ||
      { echo "bench/kernels: bench/kernels.cu did not build" >&2; exit 1; }
fi
if stale "$out/omp_kernels" bench/omp_kernels.c bench/kernels.h; then
   "$CC" -std=c11 -O2 -Wall -Wextra -fopenmp bench/omp_kernels.c -o "$out/omp_kernels" -lm 2>"$out/omp_kernels.log" ||
      { cat "$out/omp_kernels.log" >&2; skip "$CC -fopenmp could not build bench/omp_kernels.c (no OpenMP?)"; }
fi
pocl_skip=
if stale "$out/ocl_kernels" bench/ocl_kernels.c bench/kernels.h; then
   if ! "$CC" -std=c11 -O2 -Wall -Wextra bench/ocl_kernels.c -o "$out/ocl_kernels" -lOpenCL -lm \
         2>"$out/ocl_kernels.log"; then
      rm -f "$out/ocl_kernels"
      if grep -q 'CL/cl.h' "$out/ocl_kernels.log"; then
         pocl_skip="no OpenCL headers (apt-get install opencl-headers ocl-icd-opencl-dev pocl-opencl-icd)"
      elif grep -q 'lOpenCL' "$out/ocl_kernels.log"; then
         pocl_skip="no libOpenCL.so (apt-get install ocl-icd-opencl-dev pocl-opencl-icd)"
      else
         pocl_skip="bench/ocl_kernels.c did not build: $(head -n 1 "$out/ocl_kernels.log")"
      fi
   fi
fi

export METALCUDA_THREADS=$threads OMP_NUM_THREADS=$threads
export POCL_MAX_PTHREAD_COUNT=$threads POCL_CPU_MAX_CU_COUNT=$threads   # PoCL before / from 4.0
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 300"

# run LABEL KERNEL CMD...: sets $t to the median seconds, or returns 1
# with $why (3 = the program said SKIP); $info = its INFO line.
info=
run() {
   local label=$1 k=$2 o status; shift 2
   o=$($TIMEOUT "$@" "$k" "$reps" 2>&1)
   status=$?
   t=$(printf '%s\n' "$o" | sed -n "s/^TIME $k //p" | head -n 1)
   info=$(printf '%s\n' "$o" | sed -n 's/^INFO //p' | head -n 1)
   why=
   if [ $status -eq 0 ] && [ -n "$t" ]; then return 0; fi
   if [ $status -eq 3 ]; then
      why=$(printf '%s\n' "$o" | sed -n 's/^SKIP //p' | head -n 1)
      return 3
   fi
   why="$label failed (status $status)"
   echo "bench/kernels: $k: $why:" >&2
   printf '%s\n' "$o" | sed 's/^/    /' >&2
   return 1
}

name() {
   case $1 in
   saxpy) echo "SAXPY, 16M floats" ;;
   saxpy64) echo "SAXPY, size_t index, 16M floats" ;;
   stencil) echo "5-point stencil, 2048x2048 floats" ;;
   sgemm) echo "SGEMM 512^3, 16x16 shared tiles" ;;
   reduce) echo "block reduction, barriers, 16M u32" ;;
   shfl) echo "warp-shuffle reduction, 16M f32" ;;
   hist) echo "histogram 256 bins, atomics, 16M B" ;;
   *) echo "$1" ;;
   esac
}

ms() { awk -v s="$1" 'BEGIN { printf "%.2f ms", s * 1e3 }'; }
lower() { [ -z "$1" ] && { echo "$2"; return; }; awk -v a="$1" -v b="$2" 'BEGIN { print (b < a ? b : a) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3gx", a / b }'; }

rc=0 pocl_info=
for k in $kernels; do
   case $k in
   # issue 19's targets (the earlier software-device issue's were 1.5 and 3)
   saxpy | saxpy64) target="target <= 1.2" ;;
   stencil) target="target <= 1.5" ;;
   sgemm | reduce | shfl | hist) target="target <= 2" ;;
   *) echo "bench/kernels: unknown kernel '$k'" >&2; rc=1; continue ;;
   esac
   n=$(name "$k")
   mc= omp= ocl= mc_why= omp_why= ocl_why=
   [ -n "$pocl_skip" ] && ocl_why="SKIP pocl: $pocl_skip"
   for r in $(seq "$rounds"); do
      order="mc omp ocl"
      [ $((r % 2)) -eq 0 ] && order="ocl omp mc"
      for p in $order; do
         case $p in
         mc)
            [ -n "$mc_why" ] && continue
            if run metalcuda "$k" "$TOOL" run "$out/kernels"; then mc=$(lower "$mc" "$t"); else mc_why=$why mc= rc=1; fi ;;
         omp)
            [ -n "$omp_why" ] && continue
            if run OpenMP "$k" "$out/omp_kernels"; then omp=$(lower "$omp" "$t"); else omp_why=$why omp= rc=1; fi ;;
         ocl)
            [ -n "$ocl_why" ] && continue
            run PoCL "$k" "$out/ocl_kernels"
            case $? in
            0) ocl=$(lower "$ocl" "$t") pocl_info=$info ;;
            3) ocl_why="SKIP pocl: $why" ocl= ;;
            *) ocl_why=$why ocl= rc=1 ;;
            esac ;;
         esac
      done
   done
   mcv=${mc:+$(ms "$mc")}
   mcv=${mcv:-"FAIL: $mc_why"}
   if [ -n "$mc" ] && [ -n "$omp" ]; then
      echo "ROW $n vs OpenMP|$mcv|OpenMP $(ms "$omp")|$(ratio "$mc" "$omp")|metalcuda / OpenMP time; lower is better ($target)"
   else
      echo "ROW $n vs OpenMP|$mcv|OpenMP ${omp:+$(ms "$omp")}${omp_why}|FAIL|no ratio: a program failed (see above)"
   fi
   hint=
   [ "$k" = shfl ] && hint="; PoCL has no sub-group shuffles: its warp stage goes through local memory"
   if [ -n "$mc" ] && [ -n "$ocl" ]; then
      echo "ROW $n vs PoCL|$mcv|PoCL $(ms "$ocl")|$(ratio "$ocl" "$mc")|PoCL / metalcuda time; higher is better (target > 1)$hint"
   elif [ -n "$mc" ] && [ "${ocl_why#SKIP}" != "$ocl_why" ]; then
      echo "ROW $n vs PoCL|$mcv|$ocl_why|SKIP|no PoCL, no ratio"
   else
      echo "ROW $n vs PoCL|$mcv|PoCL ${ocl:+$(ms "$ocl")}${ocl_why}|FAIL|no ratio: a program failed (see above)"
   fi
done
echo "NOTE $threads threads each (metalcuda, OpenMP, PoCL), median of $reps runs after a warm-up, lowest of $rounds rounds; sizes in bench/kernels.h${pocl_info:+; PoCL: $pocl_info}"
exit $rc
