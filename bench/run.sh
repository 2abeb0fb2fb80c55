#!/usr/bin/env bash
# bench/run.sh [--native] — `make bench`: builds bench/*.cu with
# `nvcc -cudart shared` into $BUILD/bench/, runs each through
# `bin/metalcuda run` (or directly on NVIDIA's runtime with --native) and
# prints one table: each measure, its reference measured in the same run,
# and the ratio, which is the result.  Then bench/translate.sh,
# bench/kernels.sh and bench/toolchain.sh (not with --native), which print
# rows of their own.
# See bench/README.md.
#
# Environment: BUILD (default build), NVCC (nvcc), NVCC_ARCH (sm_75),
# METALCUDA_BIN (default bin/metalcuda), METALCUDA_CACHE.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
native=0
[ "${1:-}" = --native ] && native=1

if ! command -v "$NVCC" >/dev/null 2>&1; then
   echo "bench: nvcc not found (set NVCC or put it on PATH); nothing measured" >&2
   exit 1
fi
if [ $native -eq 0 ] && [ ! -x "$TOOL" ]; then
   echo "bench: $TOOL is missing: run 'make' first" >&2
   exit 1
fi
mkdir -p "$BUILD/bench"
if [ $native -eq 1 ]; then
   export LD_LIBRARY_PATH=$(dirname "$(command -v "$NVCC")")/../lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
rc=0 device=
for src in bench/*.cu; do
   n=$(basename "$src" .cu) exe=$BUILD/bench/$(basename "$src" .cu)
   [ "$n" = kernels ] && continue   # needs a kernel name: bench/kernels.sh builds and runs it
   if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
      # shellcheck disable=SC2046 # a program's own `// nvcc-flags:` line (mma.cu: -arch=sm_80)
      "$NVCC" -cudart shared -arch="$NVCC_ARCH" -O2 -Ibench $(sed -n 's|^// nvcc-flags: *||p' "$src" | head -n 1) \
         "$src" -o "$exe" || { rc=1; continue; }
   fi
   if [ $native -eq 1 ]; then out=$("$exe" 2>&1); else out=$("$TOOL" run "$exe" 2>&1); fi
   status=$?
   if [ $status -ne 0 ]; then
      echo "bench: $n failed (status $status):" >&2
      printf '%s\n' "$out" | sed 's/^/    /' >&2
      rc=1
      continue
   fi
   device=$(printf '%s\n' "$out" | sed -n 's/^DEVICE //p' | head -n 1)
   printf '%s\n' "$out" | sed -n 's/^ROW //p' >>"$rows"
   printf '%s\n' "$out" | sed -n "s/^NOTE /  ($n: /p" | sed 's/$/)/' >>"$rows.notes"
done

# libcublas against OpenBLAS and a shared-memory GEMM (bench/cublas.sh).
if [ $native -eq 0 ] && [ -e lib/libcublas.so.13 ] && out=$(bash bench/cublas.sh 2>&1); then
   printf '%s\n' "$out" | sed -n 's/^ROW //p' >>"$rows"
fi

# The cuRAND device API's Monte-Carlo kernel built by metalcuda nvcc
# against include/curand_kernel.h (NVIDIA's build ran above).
if [ $native -eq 0 ] && out=$(bash bench/curand_device.sh --ours 2>&1); then
   printf '%s\n' "$out" | sed -n 's/^ROW //p' >>"$rows"
fi

# libcufft against FFTW on the same cores (bench/cufft.sh).
if [ $native -eq 0 ] && [ -e lib/libcufft.so.12 ] && out=$(bash bench/cufft.sh 2>&1); then
   printf '%s\n' "$out" | sed -n 's/^ROW //p' >>"$rows"
fi

# Translation throughput against ptxas (not a CUDA program: no --native).
if [ $native -eq 0 ]; then
   if row=$(bash bench/translate.sh); then
      printf '%s\n' "$row" | sed -n 's/^ROW //p' >>"$rows"
   else
      rc=1
   fi
fi

# NVIDIA's runtime (static and shared) over our driver against our runtime
# (not with --native: both sides must run on metalcuda's libcuda).
if [ $native -eq 0 ]; then
   row=$(bash bench/runtimes.sh)
   status=$?
   printf '%s\n' "$row" | sed -n 's/^ROW //p' >>"$rows"
   printf '%s\n' "$row" | sed -n 's/^NOTE /  (runtimes: /p' | sed 's/$/)/' >>"$rows.notes"
   [ $status -ne 0 ] && [ $status -ne 77 ] && rc=1
fi

# metalcuda's own behaviour, against itself (not with --native): batch.sh,
# launches grouped into submissions and long grids split, against neither;
# chunks.sh, global addresses through the device memory's slot table
# against one delta (and against MC_BENCH_CHUNKS_REF's build when set).
# Status 77: skipped.
if [ $native -eq 0 ]; then
   for script in batch chunks; do
      row=$(bash bench/$script.sh)
      status=$?
      printf '%s\n' "$row" | sed -n 's/^ROW //p' >>"$rows"
      printf '%s\n' "$row" | sed -n "s/^NOTE /  ($script: /p" | sed 's/$/)/' >>"$rows.notes"
      [ $status -ne 0 ] && [ $status -ne 77 ] && rc=1
   done
fi

# Kernels against OpenMP C and OpenCL on PoCL on the same cores (software
# device only: the ratio compares CPU implementations).  Status 77: a
# prerequisite is missing, said on stderr; the rest of the table stands.
if [ $native -eq 0 ]; then
   row=$(bash bench/kernels.sh)
   status=$?
   printf '%s\n' "$row" | sed -n 's/^ROW //p' >>"$rows"
   printf '%s\n' "$row" | sed -n 's/^NOTE /  (kernels: /p' | sed 's/$/)/' >>"$rows.notes"
   if [ $status -eq 77 ]; then
      echo "bench: kernel rows skipped (see above)" >&2
   elif [ $status -ne 0 ]; then
      rc=1
   fi
fi

# metalcuda's own nvcc against NVIDIA's: compile times, and the bench
# kernels built both ways (software device only).  Status 77: skipped.
if [ $native -eq 0 ]; then
   row=$(bash bench/toolchain.sh)
   status=$?
   printf '%s\n' "$row" | sed -n 's/^ROW //p' >>"$rows"
   if [ $status -eq 77 ]; then
      echo "bench: toolchain rows skipped (see above)" >&2
   elif [ $status -ne 0 ]; then
      rc=1
   fi
fi

echo "metalcuda bench — $([ $native -eq 1 ] && echo "native (NVIDIA runtime)" || echo "through $TOOL run")"
echo "device: ${device:-?}; host: $(nproc 2>/dev/null || echo ?) CPU threads, $(uname -sm)"
echo
awk -F'|' 'BEGIN { f = "%-48s %8s   %-22s %s\n";
                   printf f, "measure", "ratio", "value", "reference";
                   printf f, "-------", "-----", "-----", "---------" }
           { printf "%-48s %8s   %-22s %s\n", $1, $4, $2, $3; how[NR] = $1 ": " $5 }
           END { print ""; print "ratio:"; for (i = 1; i <= NR; i++) print "  " how[i] }' "$rows"
[ -f "$rows.notes" ] && cat "$rows.notes" && rm -f "$rows.notes"
exit $rc
