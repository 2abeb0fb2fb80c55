#!/usr/bin/env bash
# bench/toolchain.sh — metalcuda's own nvcc (bin/metalcuda nvcc, over clang)
# against NVIDIA's nvcc, measured in the same run (issue 14's targets:
# compiles no slower, kernels within 5 %).  Prints ROW lines in
# bench/run.sh's format, which run.sh folds into its table.
#
#  - compile time: `-arch=sm_75 -O2 -c` of the same file by both drivers,
#    best of MC_BENCH_REPS (default 3), the two interleaved (a Thrust and a
#    libcu++ program among them: CCCL 3 on both sides), ours also with its
#    host and device sides one after the other (METALCUDA_NVCC_JOBS=1: by
#    default they overlap, on two cores); and the same
#    for a whole -rdc=true build of two units (separate compilation);
#  - the __shared__ rewrite (src/toolchain/source_fix.c): a file whose
#    device compile is retried, against the same file needing no retry;
#  - kernel run time: bench/kernels.cu built by both, each run through
#    metalcuda (the nvcc build by `metalcuda run`, ours directly), the
#    median of its repetitions, the lower of two rounds in alternating order
#    (kernels.sh's method); both builds check their results.
#
# Exit 77 (bench/run.sh leaves the rows out) without nvcc or without a clang
# for metalcuda's nvcc.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
reps=${MC_BENCH_REPS:-3}
kreps=${MC_BENCH_KERNEL_REPS:-7}
kernels=${MC_BENCH_TOOLCHAIN_KERNELS:-saxpy stencil sgemm reduce shfl hist}
out=$BUILD/bench/toolchain
mkdir -p "$out"

skip() { echo "bench/toolchain: skipped: $*" >&2; exit 77; }
command -v "$NVCC" >/dev/null 2>&1 || skip "nvcc not found (set NVCC or put it on PATH)"
[ -x "$TOOL" ] && [ -f lib/metalcuda/devlib.bc ] || skip "$TOOL or its device library is missing (make, with clang-19)"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
lower() { [ -z "$1" ] && { echo "$2"; return; }; awk -v a="$1" -v b="$2" 'BEGIN { print (b < a ? b : a) }'; }

# compile time of one file, both drivers, interleaved
# (Thrust and libcu++ through each driver's CCCL: CUDA 13's for nvcc, the
# one in lib/metalcuda/cccl for metalcuda nvcc; MC_BENCH_TOOLCHAIN_SOURCES
# picks the files)
sources=${MC_BENCH_TOOLCHAIN_SOURCES:-bench/fp64.cu bench/kernels.cu tests/cuda/warp_ops.cu tests/cuda/thrust_basic.cu tests/cuda/libcudacxx.cu}
for src in $sources; do
   best_nv= best_mc= best_m1=
   for r in $(seq "$reps"); do
      order="nv mc m1"
      [ $((r % 2)) -eq 0 ] && order="m1 mc nv"
      for who in $order; do
         t0=$(now)
         case $who in
         nv)
            "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench -Itests/cuda -c "$src" -o "$out/nv.o" 2>/dev/null ||
               { echo "bench/toolchain: nvcc failed on $src" >&2; exit 1; }
            best_nv=$(lower "$best_nv" "$(elapsed "$t0" "$(now)")") ;;
         mc)
            "$TOOL" nvcc -arch=sm_75 -O2 -Ibench -Itests/cuda -c "$src" -o "$out/mc.o" 2>/dev/null ||
               { echo "bench/toolchain: metalcuda nvcc failed on $src" >&2; exit 1; }
            best_mc=$(lower "$best_mc" "$(elapsed "$t0" "$(now)")") ;;
         m1)
            # the two sides one after the other, as before they overlapped
            METALCUDA_NVCC_JOBS=1 "$TOOL" nvcc -arch=sm_75 -O2 -Ibench -Itests/cuda -c "$src" -o "$out/m1.o" 2>/dev/null ||
               { echo "bench/toolchain: metalcuda nvcc (serial) failed on $src" >&2; exit 1; }
            best_m1=$(lower "$best_m1" "$(elapsed "$t0" "$(now)")") ;;
         esac
      done
   done
   awk -v f="$src" -v m="$best_mc" -v n="$best_nv" -v s="$best_m1" 'BEGIN {
      printf "ROW compile -c %s|%.2f s|nvcc %.2f s|%.2fx|metalcuda nvcc time / NVIDIA nvcc time, best of each; lower is better (target <= 1); its host and device sides one after the other (METALCUDA_NVCC_JOBS=1): %.2fx\n", f, m, n, m / n, s / n }'
done

# separate compilation: both units of tests/cuda/rdc_units compiled with
# -rdc=true and linked (nvcc's nvlink step, metalcuda nvcc's device link)
best_nv= best_mc=
for r in $(seq "$reps"); do
   for who in nv mc; do
      [ $((r % 2)) -eq 0 ] && who=$([ $who = nv ] && echo mc || echo nv)
      t0=$(now)
      if [ $who = nv ]; then
         "$NVCC" -cudart shared -arch=sm_75 -O2 -Itests/cuda -rdc=true tests/cuda/rdc_units.cu tests/cuda/rdc_units.2.cu \
            -o "$out/rdc.nv" 2>/dev/null || { echo "bench/toolchain: nvcc -rdc=true failed" >&2; exit 1; }
         best_nv=$(lower "$best_nv" "$(elapsed "$t0" "$(now)")")
      else
         "$TOOL" nvcc -arch=sm_75 -O2 -Itests/cuda -rdc=true tests/cuda/rdc_units.cu tests/cuda/rdc_units.2.cu \
            -o "$out/rdc.mc" 2>/dev/null || { echo "bench/toolchain: metalcuda nvcc -rdc=true failed" >&2; exit 1; }
         best_mc=$(lower "$best_mc" "$(elapsed "$t0" "$(now)")")
      fi
   done
done
awk -v m="$best_mc" -v n="$best_nv" 'BEGIN {
   printf "ROW build -rdc=true tests/cuda/rdc_units (2 units, device link, link)|%.2f s|nvcc %.2f s|%.2fx|metalcuda nvcc time / NVIDIA nvcc time, best of each; lower is better (target <= 1)\n", m, n, m / n }'

# the __shared__ rewrite's price (src/toolchain/source_fix.c):
# tests/cuda/async_copy.cu, whose `__shared__ cuda::barrier<...> bar;` clang
# refuses, so its device compile runs twice (the refused compile, then the
# rewritten one), against the same file with that declaration written as
# the rewrite writes it (nothing refused: one device compile); best of
# each, interleaved
shsrc=tests/cuda/async_copy.cu shvar=$out/async_copy_raw.cu
{ echo '#include <crt/mc_shared_storage.h>'
  sed 's|__shared__ cuda::barrier<cuda::thread_scope_block> bar;|__shared__ __mc_shared_storage<cuda::barrier<cuda::thread_scope_block> > __mc_raw_bar; constexpr auto \&bar = __mc_raw_bar.v;|' "$shsrc"; } >"$shvar"
if grep -q __mc_raw_bar "$shvar"; then
   best_re= best_raw=
   for r in $(seq "$reps"); do
      for who in re raw; do
         [ $((r % 2)) -eq 0 ] && who=$([ $who = re ] && echo raw || echo re)
         f=$([ $who = re ] && echo "$shsrc" || echo "$shvar")
         t0=$(now)
         "$TOOL" nvcc -arch=sm_80 -O2 -Itests/cuda -c "$f" -o "$out/sh.o" 2>/dev/null ||
            { echo "bench/toolchain: metalcuda nvcc failed on $f" >&2; exit 1; }
         t=$(elapsed "$t0" "$(now)")
         if [ $who = re ]; then best_re=$(lower "$best_re" "$t"); else best_raw=$(lower "$best_raw" "$t"); fi
      done
   done
   awk -v a="$best_re" -v b="$best_raw" 'BEGIN {
      printf "ROW compile -c async_copy.cu, a __shared__ declaration rewritten / none|%.2f s|none %.2f s|%.2fx|metalcuda nvcc on the file clang refuses (refused compile, then rewritten) / on the same file with the declaration already in raw form; the price of the retry, only on that path\n", a, b, a / b }'
else
   echo "bench/toolchain: $shsrc no longer declares the barrier this row rewrites; row left out" >&2
fi

# the bench kernels built both ways
if [ ! -x "$out/kernels.nvcc" ] || [ bench/kernels.cu -nt "$out/kernels.nvcc" ] || [ bench/kernels.h -nt "$out/kernels.nvcc" ]; then
   "$NVCC" -cudart shared -arch=sm_75 -O2 -Ibench bench/kernels.cu -o "$out/kernels.nvcc" || exit 1
fi
"$TOOL" nvcc -arch=sm_75 -O2 -Ibench bench/kernels.cu -o "$out/kernels.mc" || exit 1
median() { # prog args...: the TIME line's seconds
   local o
   o=$("$@" 2>&1) || { echo "bench/toolchain: $* failed:" >&2; printf '%s\n' "$o" | sed 's/^/    /' >&2; return 1; }
   printf '%s\n' "$o" | sed -n 's/^TIME [a-z]* //p' | head -n 1
}
rc=0
for k in $kernels; do
   nv= mc=
   for r in 1 2; do
      for who in nv mc; do
         [ $r -eq 2 ] && who=$([ $who = nv ] && echo mc || echo nv)
         if [ $who = nv ]; then
            t=$(median "$TOOL" run "$out/kernels.nvcc" "$k" "$kreps") || { rc=1; continue; }
            nv=$(lower "$nv" "$t")
         else
            t=$(median env -u LD_LIBRARY_PATH "$out/kernels.mc" "$k" "$kreps") || { rc=1; continue; }
            mc=$(lower "$mc" "$t")
         fi
      done
   done
   [ -n "$nv" ] && [ -n "$mc" ] || continue
   awk -v k="$k" -v m="$mc" -v n="$nv" 'BEGIN {
      printf "ROW kernel %s, built by metalcuda nvcc|%.2f ms|nvcc-built %.2f ms|%.2fx|time of the metalcuda-nvcc build / the NVIDIA-nvcc build, both run by metalcuda; lower is better (target <= 1.05)\n", k, m * 1e3, n * 1e3, m / n }'
done
exit $rc
