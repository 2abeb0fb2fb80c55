#!/usr/bin/env bash
# tests/runner/fake_case_runner.sh CASE... — stands in for ptx_run and
# msl_run in tests/runner/run.sh.  Like them it runs its cases in order in
# one process, prints one result line per case and exits 1 if one failed;
# what each case does is its file's "fixture:" line.  A case is named by its
# file name, or without the extension when FAKE_STRIP_EXT is set (msl_run).
#
#   pass, fail, skip         the result line
#   crash                    SIGSEGV before any result (the rest never run)
#   pass-exit                "PASS", then exit status 3 (the rest never run)
#   silent                   no result line at all
#   twice                    "PASS" twice, and a PASS for a case nobody named
#   crash-unless-first       SIGSEGV unless it is the process's first case
ulimit -c 0   # no core files from the deliberate crashes
failed=0 first=1
for c in "$@"; do
   name=${c##*/}
   [ -n "${FAKE_STRIP_EXT:-}" ] && name=${name%.*}
   what=$(sed -n 's/^.*fixture: *//p' "$c" | head -n 1)
   echo "fixture: $name does '$what'"   # other output, never counted
   case $what in
   pass) echo "PASS $name" ;;
   fail) echo "FAIL $name: the fixture fails"; failed=1 ;;
   skip) echo "SKIP $name: the fixture skips" ;;
   crash) kill -SEGV $$ ;;
   pass-exit) echo "PASS $name"; exit 3 ;;
   silent) ;;
   twice) echo "PASS $name"; echo "PASS $name"; echo "PASS not_a_case" ;;
   crash-unless-first) [ $first -eq 1 ] || kill -SEGV $$; echo "PASS $name" ;;
   *) echo "FAIL $name: unknown fixture '$what'"; failed=1 ;;
   esac
   first=0
done
exit $failed
