#!/usr/bin/env bash
# tests/msl/run.sh [case.metal...] — runs the hand-written MSL cases on the
# software Metal device, one process per case (a crash fails that case
# only).  Prints exactly one "PASS name", "FAIL name: why" or "SKIP name:
# why" line per case (see tests/run.sh), the runner's other output
# indented; the case format is described in tests/tools/msl_run.c.  A case
# passes (or skips) only when its line says so and its process exited with
# status 0.
#
# Environment: BUILD (default build); MSL_RUN, the runner (default
# $BUILD/tests/tools/msl_run; tests/runner/ puts a fake one here);
# MSL_OLD_CXX=0 skips the second run with an older plain clang++ (below).
set -u
cd "$(dirname "$0")/../.."
. tests/tools/verdicts.sh
BUILD=${BUILD:-build}
RUNNER=${MSL_RUN:-$BUILD/tests/tools/msl_run}
export METALCUDA_DEVICE=${METALCUDA_DEVICE:-soft}
export METALCUDA_CACHE=${METALCUDA_CACHE:-$PWD/$BUILD/test-cache}
cases=("$@")
if [ ! -x "$RUNNER" ]; then
   # every case fails: the count must not depend on what could run
   [ ${#cases[@]} -eq 0 ] && cases=(tests/msl/*.metal)
   for c in "${cases[@]}"; do echo "FAIL $(basename "$c" .metal): $RUNNER is missing (make unit builds it)"; done
   exit 1
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0

# A machine whose plain clang++ is older than the newest clang++-NN gets
# the cases a second time with it, named NAME@clang++NN (tests/tools/old_cxx.sh).
. tests/tools/old_cxx.sh
old_cxx=
if [ ${#cases[@]} -eq 0 ] && [ -z "${METALCUDA_CXX:-}" ] && [ "${MSL_OLD_CXX:-1}" != 0 ]; then
   old_cxx=$(old_cxx_major)
fi
[ ${#cases[@]} -eq 0 ] && cases=(tests/msl/*.metal)
runs=("${cases[@]}")
[ -n "$old_cxx" ] && for c in "${cases[@]}"; do runs+=("$c@clang++$old_cxx"); done

for run in "${runs[@]}"; do
   c=${run%@*}
   base=$(basename "$c" .metal)
   name=$base cxx=
   if [[ $run == *@* ]]; then
      cxx=clang++
      name=$base@${run##*@}
   fi
   METALCUDA_CXX=$cxx "$RUNNER" "$c" >"$out" 2>&1
   status=$?
   res=$(verdict_pick "$out" "$base")
   line=$(grep -E "^(PASS|FAIL|SKIP|MISSING) " <<<"$res")
   line=${line/ $base/ $name}
   if [[ $line == MISSING* ]]; then
      line="FAIL $name: no result: runner $(verdict_how $status): $(grep -v '^MISSING ' <<<"$res" | tail -n 3 | tr -s ' \n' ' ')"
   elif [[ $line != FAIL* ]] && [ $status -ne 0 ]; then
      line="FAIL $name: runner $(verdict_how $status) after: $line"
   fi
   echo "$line"
   grep -vE "^(PASS|FAIL|SKIP|MISSING) " <<<"$res"
   [[ $line == FAIL* ]] && rc=1
done
exit $rc
