#!/usr/bin/env bash
# tests/msl/run.sh [case.metal...] — runs the hand-written MSL cases on the
# software Metal device, one process per case (a crash fails that case
# only).  Prints "PASS name", "FAIL name: why" or "SKIP name: why" per case
# (see tests/run.sh); the case format is described in tests/tools/msl_run.c.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RUNNER=$BUILD/tests/tools/msl_run
export METALCUDA_DEVICE=${METALCUDA_DEVICE:-soft}
export METALCUDA_CACHE=${METALCUDA_CACHE:-$PWD/$BUILD/test-cache}
if [ ! -x "$RUNNER" ]; then
   echo "FAIL msl_run: $RUNNER is missing (make unit builds it)"
   exit 1
fi
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(tests/msl/*.metal)
rc=0
for c in "${cases[@]}"; do
   name=$(basename "$c" .metal)
   out=$("$RUNNER" "$c" 2>&1)
   status=$?
   if printf '%s\n' "$out" | grep -qE "^(PASS|FAIL|SKIP) $name"; then
      printf '%s\n' "$out" | grep -E "^(PASS|FAIL|SKIP) "
      printf '%s\n' "$out" | grep -vE "^(PASS|FAIL|SKIP) " | sed 's/^/    /'
   else
      echo "FAIL $name: runner exited with status $status: $(printf '%s' "$out" | tail -n 3 | tr '\n' ' ')"
   fi
   [ $status -ne 0 ] && rc=1
done
exit $rc
