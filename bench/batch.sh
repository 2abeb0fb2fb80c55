#!/usr/bin/env bash
# bench/batch.sh — what grouping launches into submissions and splitting
# long grids cost or save (issue 15, findings 8 and 11; bench/README.md,
# "batch" rows), measured side by side:
#  - bench/launch.cu with the default grouping (up to 64 launches per
#    submission while earlier ones run, src/metal/batch.c) against
#    METALCUDA_BATCH=1 (one launch per submission, as before): host time
#    per launch, and launch + completion per launch;
#  - SAXPY over 16M floats (bench/kernels.cu: 65536 blocks of 256) whole
#    (METALCUDA_GRID_SPLIT=0) against split into 16 pieces of 4096 blocks,
#    each its own submission (METALCUDA_GRID_SPLIT=4096).
# Variants alternate, MC_BENCH_BATCH_ROUNDS rounds (default 3); each
# figure is the lowest of its rounds (other load only adds time).  Prints
# ROW lines for bench/run.sh; exit 77 when nvcc or bin/metalcuda is missing.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
ROUNDS=${MC_BENCH_BATCH_ROUNDS:-3}
if ! command -v "$NVCC" >/dev/null 2>&1 || [ ! -x "$TOOL" ]; then
   echo "batch: needs nvcc and $TOOL" >&2
   exit 77
fi
mkdir -p "$BUILD/bench"
for n in launch kernels; do
   exe=$BUILD/bench/$n
   if [ ! -x "$exe" ] || [ "bench/$n.cu" -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
      "$NVCC" -cudart shared -arch="$NVCC_ARCH" -O2 -Ibench "bench/$n.cu" -o "$exe" || exit 1
   fi
done

# One run: "host completion" (us per launch) or the saxpy time (s).
measure() {
   local out
   case $1 in
   batched) out=$("$TOOL" run "$BUILD/bench/launch" 2>&1) ;;
   single) out=$(METALCUDA_BATCH=1 "$TOOL" run "$BUILD/bench/launch" 2>&1) ;;
   whole) out=$(METALCUDA_GRID_SPLIT=0 "$TOOL" run "$BUILD/bench/kernels" saxpy 2>&1) ;;
   split) out=$(METALCUDA_GRID_SPLIT=4096 "$TOOL" run "$BUILD/bench/kernels" saxpy 2>&1) ;;
   esac || { echo "batch: $1 failed: $out" >&2; return 1; }
   case $1 in
   batched|single)
      local l t
      l=$(printf '%s\n' "$out" | sed -n 's/^ROW empty kernel launch[^|]*|\([0-9.]*\) us.*/\1/p')
      t=$(printf '%s\n' "$out" | sed -n 's/^ROW launch + run to completion[^|]*|\([0-9.]*\) us.*/\1/p')
      [ -n "$l" ] && [ -n "$t" ] || { echo "batch: $1 printed no figures" >&2; return 1; }
      echo "$l $t" ;;
   *)
      local s
      s=$(printf '%s\n' "$out" | sed -n 's/^TIME saxpy \([0-9.]*\)/\1/p')
      [ -n "$s" ] || { echo "batch: $1 printed no time" >&2; return 1; }
      echo "$s 0" ;;
   esac
}

variants=(batched single whole split)
declare -A best_a best_b
lower() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
for ((r = 0; r < ROUNDS; r++)); do
   order=("${variants[@]}")
   ((r % 2)) && order=(split whole single batched)
   for v in "${order[@]}"; do
      read -r a b < <(measure "$v") || exit 1
      if [ -z "${best_a[$v]:-}" ] || lower "$a" "${best_a[$v]}"; then best_a[$v]=$a; fi
      if [ -z "${best_b[$v]:-}" ] || lower "$b" "${best_b[$v]}"; then best_b[$v]=$b; fi
   done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf 'ROW launch, batched / one per submission, host|%s us per launch|one per submission: %s us|%s|batched time / unbatched time (METALCUDA_BATCH=1), host time per launch call; lower is better\n' \
   "${best_a[batched]}" "${best_a[single]}" "$(ratio "${best_a[batched]}" "${best_a[single]}")"
printf 'ROW launch + completion, batched / one per submission|%s us per launch|one per submission: %s us|%s|batched time / unbatched time (METALCUDA_BATCH=1), 2000 launches then a synchronisation; lower is better\n' \
   "${best_b[batched]}" "${best_b[single]}" "$(ratio "${best_b[batched]}" "${best_b[single]}")"
printf 'ROW SAXPY 16M split in 16 submissions / whole|%s s|whole grid: %s s|%s|time split into 16 pieces of 4096 blocks (METALCUDA_GRID_SPLIT=4096) / the whole grid in one dispatch; the price of watchdog-safe pieces, lower is better\n' \
   "${best_a[split]}" "${best_a[whole]}" "$(ratio "${best_a[split]}" "${best_a[whole]}")"
echo "NOTE $ROUNDS rounds, lowest of each; launch.cu's 2000 launches x 9 repetitions, kernels.cu saxpy"
