#!/usr/bin/env bash
# bench/runtimes.sh — launch overhead through NVIDIA's runtime on
# metalcuda's libcuda against metalcuda's own runtime, measured side by side
# (bench/README.md, "runtimes" rows).  bench/launch.cu is built twice:
# `-cudart shared` (run through bin/metalcuda run: metalcuda's libcudart,
# and, when the toolkit has it, on NVIDIA's libcudart.so.13 over our
# libcuda) and with nvcc's default static runtime (NVIDIA's runtime inside
# the program, through bin/metalcuda run).  The variants run one after the
# other, MC_BENCH_RUNTIME_ROUNDS times (default 3) in alternating order;
# each variant's figure is the lowest of its rounds' medians (other load
# only adds time).  Prints ROW lines for bench/run.sh; exit 77 when nvcc
# or bin/metalcuda is missing.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
ROUNDS=${MC_BENCH_RUNTIME_ROUNDS:-3}
if ! command -v "$NVCC" >/dev/null 2>&1 || [ ! -x "$TOOL" ]; then
   echo "runtimes: needs nvcc and $TOOL" >&2
   exit 77
fi
mkdir -p "$BUILD/bench"
shared=$BUILD/bench/launch static=$BUILD/bench/launch.static
for v in shared static; do
   exe=${!v}
   if [ ! -x "$exe" ] || [ bench/launch.cu -nt "$exe" ] || [ bench/bench.h -nt "$exe" ]; then
      "$NVCC" -cudart "$v" -arch="$NVCC_ARCH" -O2 -Ibench bench/launch.cu -o "$exe" || exit 1
   fi
done
# NVIDIA's shared runtime: a directory holding only our libcuda, then the toolkit's lib64
tk_lib=$(cd "$(dirname "$(command -v "$NVCC")")/../lib64" 2>/dev/null && pwd)
nvrt_path=
if [ -n "$tk_lib" ] && [ -e "$tk_lib/libcudart.so.13" ]; then
   nvrt_path=$(bash tests/tools/driver_only_dir.sh "$BUILD" "$(dirname "$TOOL")/../lib"):$tk_lib
fi

# One run of a variant: "launch drain" in microseconds (launch.cu's medians).
measure() {
   local out
   case $1 in
   ours) out=$("$TOOL" run "$shared" 2>&1) ;;
   static) out=$("$TOOL" run "$static" 2>&1) ;;
   nvrt) out=$(LD_LIBRARY_PATH="$nvrt_path" "$shared" 2>&1) ;;
   esac || { echo "runtimes: $1 failed: $out" >&2; return 1; }
   local l t
   l=$(printf '%s\n' "$out" | sed -n 's/^ROW empty kernel launch[^|]*|\([0-9.]*\) us.*/\1/p')
   t=$(printf '%s\n' "$out" | sed -n 's/^ROW launch + run to completion[^|]*|\([0-9.]*\) us.*/\1/p')
   [ -n "$l" ] && [ -n "$t" ] || { echo "runtimes: $1 printed no figures" >&2; return 1; }
   echo "$l $t"
}

variants=(ours static)
[ -n "$nvrt_path" ] && variants+=(nvrt)
declare -A best_l best_t
for ((r = 0; r < ROUNDS; r++)); do
   order=("${variants[@]}")
   if ((r % 2)); then   # alternate the order so a load change hits all alike
      order=()
      for ((i = ${#variants[@]} - 1; i >= 0; i--)); do order+=("${variants[i]}"); done
   fi
   for v in "${order[@]}"; do
      read -r l t < <(measure "$v") || exit 1
      if [ -z "${best_l[$v]:-}" ] || awk -v a="$l" -v b="${best_l[$v]}" 'BEGIN { exit !(a < b) }'; then best_l[$v]=$l; fi
      if [ -z "${best_t[$v]:-}" ] || awk -v a="$t" -v b="${best_t[$v]}" 'BEGIN { exit !(a < b) }'; then best_t[$v]=$t; fi
   done
done

row() {   # row NAME VARIANT FIGURE(l|t)
   local name=$1 v=$2 x y
   if [ "$3" = l ]; then x=${best_l[$v]} y=${best_l[ours]}; else x=${best_t[$v]} y=${best_t[ours]}; fi
   printf 'ROW %s|%s us per launch|metalcuda runtime: %s us|%s|NVIDIA runtime time / metalcuda runtime time, both on metalcuda'"'"'s libcuda; target <= 1.2, lower is better\n' \
      "$name" "$x" "$y" "$(awk -v a="$x" -v b="$y" 'BEGIN { printf "%.2f", a / b }')"
}
row "launch via NVIDIA's static runtime, host time" static l
row "launch + completion via NVIDIA's static runtime" static t
if [ -n "$nvrt_path" ]; then
   row "launch via NVIDIA's libcudart.so.13, host time" nvrt l
   row "launch + completion via NVIDIA's libcudart.so.13" nvrt t
fi
echo "NOTE $ROUNDS rounds, lowest median of each; launch.cu's 2000 launches x 9 repetitions"
