#!/usr/bin/env bash
# tests/unit/run.sh [test_NAME...] — runs the unit-test binaries, one per
# tests/unit/test_*.c (or those named), and prints exactly one "PASS name",
# "FAIL name: why" or "SKIP name: why" line per test they hold (see
# tests/run.sh), their other output indented.
#
# What a binary must report comes from itself (`test_x --list`, harness.c),
# so it is known before it runs:
#  - a binary that is missing fails, named;
#  - a test without a result line fails: the one the binary died in ("no
#    result"), and each one after it ("not run");
#  - a binary that exits non-zero although none of its tests failed (a
#    leak found at exit under ASan, say) fails once more, named.
#
# Environment: BUILD (default build); UNIT_BINDIR, where the binaries are
# (default $BUILD/tests/unit; tests/runner/ puts fake ones there).
set -u
cd "$(dirname "$0")/../.."
. tests/tools/verdicts.sh
BUILD=${BUILD:-build}
BINDIR=${UNIT_BINDIR:-$BUILD/tests/unit}
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
   for s in tests/unit/test_*.c; do bins+=("$(basename "$s" .c)"); done
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.res"' EXIT
rc=0
for n in "${bins[@]}"; do
   t=$BINDIR/$n
   if [ ! -x "$t" ]; then
      echo "FAIL $n: $t is missing (make unit builds it)"
      rc=1
      continue
   fi
   "$t" --list >"$out" 2>&1
   status=$?
   if [ $status -ne 0 ] || [ ! -s "$out" ]; then
      # (a binary with no tests is a test lost too)
      echo "FAIL $n: cannot list its tests: $t --list $(verdict_how $status)$([ -s "$out" ] || echo ", printing nothing")"
      sed 's/^/    /' "$out"
      rc=1
      continue
   fi
   mapfile -t tests <"$out"
   "$t" >"$out" 2>&1
   status=$?
   how="$n $(verdict_how $status)"
   verdict_pick "$out" "${tests[@]}" | awk -v how="$how" '
      /^MISSING / { print "FAIL " $2 ": " (died == "" ? "no result (" how ")" : "not run (" how " in " died ")"); if (died == "") died = $2; next }
      { print }' >"$out.res"
   cat "$out.res"
   if grep -q '^FAIL ' "$out.res"; then
      rc=1
   elif [ $status -ne 0 ]; then
      echo "FAIL $n: $how, although none of its tests failed"
      rc=1
   fi
   rm -f "$out.res"
done
exit $rc
