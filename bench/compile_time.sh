#!/usr/bin/env bash
# bench/compile_time.sh BIN... — what the software device's first compile
# of a fixed set of 11 kernels costs (issue 19's compile-time target,
# bench/README.md "Compile time against the filing"), for each build's
# bin/metalcuda given, alternated, MC_BENCH_CT_ROUNDS rounds (default 3).
#
# The set: tests/cuda/lane_divergence (4 kernels), tests/cuda/block_reduce
# (4), bench/kernels.cu's sgemm, reduce and shfl (one library each), each
# built with `nvcc -cudart shared -arch=sm_75 -O2`, run one after another
# through BIN with one fresh METALCUDA_CACHE (so the precompiled prelude,
# where a build has one, is made by the first library, unless the build
# prepares it beforehand: see below).  Per build and
# round it prints the sum of METALCUDA_LOG=info's "compiled in" (wall ms,
# from the scan to the loaded library), each library's, and the CPU
# (user + system) of every compiler and linker run: the host compiler is
# run through a wrapper that times it, and the linker command that the
# driver gives (`-###`, compile.c "linking") through one that times the
# linker.  The CPU figure moves less than the wall one with other load.
# Exit status 77 when nvcc is missing, 1 when a program fails.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
CXX_REAL=${MC_BENCH_CT_CXX:-$(command -v clang++-19 || command -v clang++)}
ROUNDS=${MC_BENCH_CT_ROUNDS:-3}
[ $# -ge 1 ] || { echo "usage: bench/compile_time.sh BIN..." >&2; exit 2; }
command -v "$NVCC" >/dev/null 2>&1 || { echo "compile_time: needs nvcc" >&2; exit 77; }
out=$BUILD/bench/ct
mkdir -p "$out"
for p in tests/cuda/lane_divergence tests/cuda/block_reduce bench/kernels; do
   exe=$out/$(basename "$p")
   if [ ! -x "$exe" ] || [ "$p.cu" -nt "$exe" ]; then
      "$NVCC" -cudart shared -arch=sm_75 -O2 -Itests/cuda -Ibench "$p.cu" -o "$exe" ||
         { echo "compile_time: $p.cu did not build" >&2; exit 1; }
   fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The wrappers: each run's user + system seconds to $tmp/log.
cat >"$tmp/cxx" <<EOF
#!/usr/bin/env bash
if [[ " \$* " == *" -### "* ]]; then   # the linker's command: through the ld wrapper
   /usr/bin/time -f "%U %S" -a -o "$tmp/log" "$CXX_REAL" "\$@" 2>&1 |
      sed -E 's|^ "([^"]*)" | "$tmp/ld" "\1" |' >&2
   exit \${PIPESTATUS[0]}
fi
/usr/bin/time -f "%U %S" -a -o "$tmp/log" "$CXX_REAL" "\$@"
EOF
cat >"$tmp/ld" <<EOF
#!/usr/bin/env bash
ld=\$1; shift
/usr/bin/time -f "%U %S" -a -o "$tmp/log" "\$ld" "\$@"
EOF
chmod +x "$tmp/cxx" "$tmp/ld"
# A build with `metalcuda prepare` (src/metal/soft/prepared.c) has its
# first-compile files made at build or install time, for its compiler: made
# here once for the timing wrapper, reported, and not in the rounds' totals
# (which a user's first run does not pay either).
i=0
for bin in "$@"; do
   i=$((i + 1))
   : >"$tmp/log"
   if METALCUDA_CXX=$tmp/cxx "$bin" prepare "$tmp/prep$i" >/dev/null 2>&1; then
      cpu=$(grep -E '^[0-9.]+ [0-9.]+$' "$tmp/log" | awk '{t += $1 + $2} END {printf "%.2f", t}')
      echo "$bin: prepared once (make, make install): CPU $cpu s, not in the totals below"
   fi
done
rc=0
for r in $(seq "$ROUNDS"); do
   i=0
   for bin in "$@"; do
      i=$((i + 1))
      cache=$(mktemp -d "$tmp/cacheXXXX")
      : >"$tmp/log"
      ms=""
      for run in "lane_divergence" "block_reduce" "kernels sgemm" "kernels reduce" "kernels shfl"; do
         log=$(METALCUDA_PREPARED=$tmp/prep$i METALCUDA_CACHE=$cache METALCUDA_CXX=$tmp/cxx METALCUDA_LOG=info \
               "$bin" run $out/$run 2>&1) || rc=1
         ms="$ms $(echo "$log" | grep -o 'compiled in [0-9]*' | awk '{printf "%s ", $3}')"
      done
      total=$(echo $ms | awk '{for (i = 1; i <= NF; i++) t += $i; print t}')
      cpu=$(grep -E '^[0-9.]+ [0-9.]+$' "$tmp/log" | awk '{t += $1 + $2} END {printf "%.2f", t}')
      echo "round $r $bin: compiled in $total ms, CPU $cpu s (per library, ms:$(echo $ms | sed 's/^/ /'))"
      rm -rf "$cache"
   done
done
exit $rc
