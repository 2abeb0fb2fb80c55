#!/usr/bin/env bash
# bench/translate.sh — translation throughput on the large PTX corpus
# (tests/ptx/corpus/cccl_big.cu, ~20 MB of CUB/Thrust PTX) against ptxas
# compiling the same file, measured in the same run.  Prints one ROW line
# in bench/run.sh's format, which run.sh folds into its table.
#
# Ours: parse + translate every kernel to MSL (tests/tools/ptx_corpus, no
# cache; the Metal compile of the MSL is not included, as ptxas's output is
# not loaded either).  Theirs: ptxas -arch=sm_75 on the same file.  Both
# times are the best of MC_BENCH_REPS (default 3) runs.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
reps=${MC_BENCH_REPS:-3}
ptx=$BUILD/ptx-corpus-big/cccl_big_sm75.ptx
tool=$BUILD/tests/tools/ptx_corpus
command -v ptxas >/dev/null 2>&1 || { echo "bench/translate: ptxas not found" >&2; exit 1; }
[ -x "$tool" ] || { echo "bench/translate: $tool missing (make unit)" >&2; exit 1; }
if [ ! -f "$ptx" ]; then
   MC_CORPUS_COMPILE_EVERY=0 bash tests/ptx/corpus/big.sh >/dev/null || true
fi
[ -f "$ptx" ] || { echo "bench/translate: $ptx could not be generated" >&2; exit 1; }
best_ours= best_ptxas= line=
for _ in $(seq "$reps"); do
   line=$("$tool" --quiet "$ptx" | tail -n 1)
   s=$(printf '%s\n' "$line" | sed -n 's/.* in \([0-9.]*\) s .*/\1/p')
   [ -z "$best_ours" ] || awk -v a="$s" -v b="$best_ours" 'BEGIN { exit !(a < b) }' && best_ours=$s
   t0=$(date +%s.%N)
   ptxas -arch=sm_75 "$ptx" -o /dev/null 2>/dev/null || { echo "bench/translate: ptxas failed" >&2; exit 1; }
   t1=$(date +%s.%N)
   p=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
   [ -z "$best_ptxas" ] || awk -v a="$p" -v b="$best_ptxas" 'BEGIN { exit !(a < b) }' && best_ptxas=$p
done
bytes=$(wc -c <"$ptx")
kernels=$(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) kernels$/\1/p')
awk -v b="$bytes" -v o="$best_ours" -v p="$best_ptxas" -v k="$kernels" 'BEGIN {
   printf "ROW translation throughput (%.1f MB PTX, %d kernels)|%.2f MB/s|ptxas %.2f MB/s|%.1fx|ptxas time / translation time on the same PTX; higher is better (target >= 10)\n",
          b / 1e6, k, b / 1e6 / o, b / 1e6 / p, p / o }'
