#!/usr/bin/env bash
# tests/runner/fake_unit_test.sh 'NAME:WHAT ...' STATUS [--list] — stands in
# for a unit-test binary (tests/unit/harness.c) in tests/runner/run.sh:
# with --list it prints its test names, otherwise it runs them in order,
# printing a result line per test, and exits 1 if one failed, or STATUS
# if that is not empty (a binary that exits non-zero after its tests).
# WHAT: pass, fail, skip, crash (SIGSEGV: the rest never run), twice
# ("PASS" twice, and a PASS for a test it does not have).
ulimit -c 0   # no core files from the deliberate crashes
spec=$1 status=$2
shift 2
if [ "${1:-}" = --list ]; then
   for t in $spec; do echo "${t%%:*}"; done
   exit 0
fi
failed=0
for t in $spec; do
   name=${t%%:*}
   echo "  fixture: $name does '${t#*:}'"   # other output, never counted
   case ${t#*:} in
   pass) echo "PASS $name" ;;
   fail) echo "FAIL $name: fixture.c:1: the fixture fails"; failed=1 ;;
   skip) echo "SKIP $name: the fixture skips" ;;
   crash) kill -SEGV $$ ;;
   twice) echo "PASS $name"; echo "PASS $name"; echo "PASS not_a_test" ;;
   esac
done
[ -n "$status" ] && exit "$status"
exit $failed
