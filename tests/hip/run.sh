#!/usr/bin/env bash
# tests/hip/run.sh [name...] — the HIP programs (tests/hip/*.hip) built with
# metalcuda's hipcc (bin/metalcuda hipcc: hip/hip_runtime.h over the CUDA
# headers, the same clang plan as the nvcc driver) and run directly (their
# run path finds our libcudart).  One line per program: PASS/FAIL/SKIP
# (tests/run.sh counts them).  A binary newer than its source, hip_check.h,
# include/ and the tool is reused.  Without a clang with the NVPTX back end
# every program is a SKIP, never a PASS.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=${BUILD:-build}
TOOL=$ROOT/bin/metalcuda
OUT=$ROOT/$BUILD/tests/hip
TIMEOUT=${MC_CUDA_TIMEOUT:-120}
export METALCUDA_CACHE=${METALCUDA_CACHE:-$ROOT/$BUILD/test-cache}
mkdir -p "$OUT"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
   for f in tests/hip/*.hip; do names+=("$(basename "$f" .hip)"); done
fi
if [ ! -x "$TOOL" ] || [ ! -f lib/metalcuda/devlib.bc ]; then
   for n in "${names[@]}"; do echo "SKIP hip.$n: no clang with the NVPTX back end (install clang-19)"; done
   exit 0
fi

build_one() {
   local src=tests/hip/$1.hip exe=$OUT/$1
   if [ -x "$exe" ] && [ "$exe" -nt "$src" ] && [ "$exe" -nt "$TOOL" ] && [ "$exe" -nt lib/metalcuda/devlib.bc ] &&
      [ -z "$(find include tests/hip/hip_check.h -newer "$exe" -print -quit)" ]; then
      return 0
   fi
   rm -f "$exe"
   "$TOOL" hipcc -O2 -Itests/hip "$src" -o "$exe" >"$exe.log" 2>&1 || rm -f "$exe"
}
running=0
for n in "${names[@]}"; do
   build_one "$n" &
   running=$((running + 1))
   if [ $running -ge "$(nproc 2>/dev/null || echo 2)" ]; then wait -n; running=$((running - 1)); fi
done
wait

rc=0
for n in "${names[@]}"; do
   exe=$OUT/$n
   if [ ! -x "$exe" ]; then
      echo "FAIL hip.$n: hipcc build failed: $(grep -m1 -E 'error' "$exe.log" 2>/dev/null || tail -n 1 "$exe.log")"
      rc=1
      continue
   fi
   out=$(cd "$OUT" && timeout "$TIMEOUT" env -u LD_LIBRARY_PATH "$exe" 2>&1)
   st=$?
   verdict=$(printf '%s\n' "$out" | grep -E "^(PASS|FAIL) $n( |:|$)" | tail -n 1)
   if [ $st -eq 0 ] && [[ $verdict == PASS* ]]; then
      echo "PASS hip.${verdict#PASS }"
   else
      echo "FAIL hip.$n: ${verdict:-exited with status $st}"
      printf '%s\n' "$out" | tail -n 15 | sed 's/^/    /'
      rc=1
   fi
done
exit $rc
