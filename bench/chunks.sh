#!/usr/bin/env bash
# bench/chunks.sh — what translating every global address through the
# device memory's slot table costs (issue 15, finding 10; core/arena.c,
# prelude/base.metal mc_gpu; bench/README.md, "chunks" rows), measured
# side by side on two memory-bound kernels of bench/kernels.cu (SAXPY over
# 16M floats, the 5-point stencil over 2048x2048):
#  - "one": the software device as it runs by default: every chunk at one
#    delta, kernels compiled with __MC_SOFT_ONE_DELTA (a base pointer plus
#    an offset, no table read);
#  - "table": METALCUDA_SOFT_SCATTER=1: each chunk at its own delta, every
#    global access through the slot table, as kernels run on an Apple GPU;
#  - "many": the same with METALCUDA_ARENA_CHUNK_MB=1: the data over about
#    a hundred 1 MB slots (the table read at as many places);
#  - "ref", when MC_BENCH_CHUNKS_REF names another build's bin/metalcuda
#    (say, a checkout from before the slot table, whose kernels added one
#    delta): the same program through it.
# Variants alternate, MC_BENCH_CHUNKS_ROUNDS rounds (default 3); each figure
# is the lowest of its rounds (other load only adds time).  Prints ROW lines
# for bench/run.sh; exit 77 when nvcc or bin/metalcuda is missing.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
REF=${MC_BENCH_CHUNKS_REF:-}
ROUNDS=${MC_BENCH_CHUNKS_ROUNDS:-3}
if ! command -v "$NVCC" >/dev/null 2>&1 || [ ! -x "$TOOL" ]; then
   echo "chunks: needs nvcc and $TOOL" >&2
   exit 77
fi
mkdir -p "$BUILD/bench"
exe=$BUILD/bench/kernels
if [ ! -x "$exe" ] || [ bench/kernels.cu -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
   "$NVCC" -cudart shared -arch="$NVCC_ARCH" -O2 -Ibench bench/kernels.cu -o "$exe" || exit 1
fi

# One run of kernel $2 in variant $1: its time in seconds.
measure() {
   local out s
   case $1 in
   one) out=$("$TOOL" run "$exe" "$2" 2>&1) ;;
   table) out=$(METALCUDA_SOFT_SCATTER=1 "$TOOL" run "$exe" "$2" 2>&1) ;;
   many) out=$(METALCUDA_SOFT_SCATTER=1 METALCUDA_ARENA_CHUNK_MB=1 "$TOOL" run "$exe" "$2" 2>&1) ;;
   ref) out=$("$REF" run "$exe" "$2" 2>&1) ;;
   esac || { echo "chunks: $1 $2 failed: $out" >&2; return 1; }
   s=$(printf '%s\n' "$out" | sed -n "s/^TIME $2 \([0-9.]*\)/\1/p")
   [ -n "$s" ] || { echo "chunks: $1 $2 printed no time: $out" >&2; return 1; }
   echo "$s"
}

variants=(one table many)
[ -n "$REF" ] && variants+=(ref)
declare -A best
lower() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
for ((r = 0; r < ROUNDS; r++)); do
   for k in saxpy stencil; do
      order=("${variants[@]}")
      ((r % 2)) && order=($(printf '%s\n' "${variants[@]}" | tac))
      for v in "${order[@]}"; do
         t=$(measure "$v" "$k") || exit 1
         if [ -z "${best[$v$k]:-}" ] || lower "$t" "${best[$v$k]}"; then best[$v$k]=$t; fi
      done
   done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for k in saxpy stencil; do
   printf 'ROW %s, slot table / one delta|%s s|one delta: %s s|%s|time with METALCUDA_SOFT_SCATTER=1 (every access through the slot table, as on an Apple GPU) / the default (one delta, no table); lower is better\n' \
      "$k" "${best[table$k]}" "${best[one$k]}" "$(ratio "${best[table$k]}" "${best[one$k]}")"
   printf 'ROW %s, slot table, 1 MB slots / 1 GB slots|%s s|1 GB slots: %s s|%s|time with METALCUDA_ARENA_CHUNK_MB=1 / the default, both through the table; lower is better (1: the number of chunks costs nothing)\n' \
      "$k" "${best[many$k]}" "${best[table$k]}" "$(ratio "${best[many$k]}" "${best[table$k]}")"
   if [ -n "$REF" ]; then
      printf 'ROW %s, this build / %s|%s s|reference: %s s|%s|time of this build (by default: one delta) / the reference build'"'"'s, the same program; lower is better\n' \
         "$k" "$REF" "${best[one$k]}" "${best[ref$k]}" "$(ratio "${best[one$k]}" "${best[ref$k]}")"
   fi
done
echo "NOTE $ROUNDS rounds, lowest of each; bench/kernels.cu"
