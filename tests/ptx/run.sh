#!/usr/bin/env bash
# tests/ptx/run.sh [case.ptx...] — runs every PTX conformance case (or those
# named) through metalcuda's driver API and compares with the outputs an
# NVIDIA GPU produced.  Prints exactly one "PASS name", "FAIL name: why" or
# "SKIP name: why" line per case (counted by tests/run.sh); the runner's
# other output follows, indented.
#
# The cases run in parallel batches of 16 per ptx_run process (one process
# per case takes about three times as long with a warm kernel cache).  A
# batch's results are taken only when its process ended normally — status
# 0, or 1 with a case failed — and reported on each of its cases.
# Otherwise (a crash, any other status, a case without a result) each case
# of the batch runs again alone, so a crash costs no other case its
# result, and a case whose own process does not end normally fails: "FAIL
# name: no result (ptx_run killed by signal 11)".  A batch failure that
# neither the case the batch stopped at nor the one before it reproduces
# alone still fails the case it stopped at.
#
# Environment: BUILD (default build); PTX_RUN, the runner (default
# $BUILD/tests/ptx/ptx_run; tests/runner/ puts a fake one here).
set -u
cd "$(dirname "$0")/../.."
. tests/tools/verdicts.sh
BUILD=${BUILD:-build}
runner=${PTX_RUN:-$BUILD/tests/ptx/ptx_run}
BATCH=16
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(tests/ptx/cases/*.ptx)
if [ ! -x "$runner" ]; then
   # every case fails: the count must not depend on what could run
   for c in "${cases[@]}"; do echo "FAIL ${c##*/}: $runner is not built (make unit)"; done
   exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ptx_run names a case by its file name.
names_of() {
   local c
   for c in "$@"; do printf '%s ' "${c##*/}"; done
}

# run_alone CASE — one case in a process of its own: its result line, which
# passes only when the process's status agrees (0 for PASS and SKIP).
# Returns 2 when the process did not end normally.
run_alone() {
   local out=$tmp/alone.$BASHPID name=${1##*/} status res line
   "$runner" "$1" >"$out" 2>&1
   status=$?
   res=$(verdict_pick "$out" "$name")
   rm -f "$out"
   line=$(printf '%s\n' "$res" | grep -E "^(PASS|FAIL|SKIP|MISSING) " | head -n 1)
   local normal=0
   if [[ $line == MISSING* ]]; then
      line="FAIL $name: no result (ptx_run $(verdict_how $status))"
      normal=2
   elif [[ $line != FAIL* ]] && [ $status -ne 0 ]; then
      line="FAIL $name: ptx_run $(verdict_how $status) after: $line"
      normal=2
   elif [ $status -gt 1 ]; then
      normal=2
   fi
   printf '%s\n' "$res" | grep -vE "^(PASS|FAIL|SKIP|MISSING) "
   echo "$line"
   return $normal
}

# run_batch CASE... — prints one result line per case (see the top).
run_batch() {
   local out=$tmp/batch.$BASHPID status res c
   "$runner" "$@" >"$out" 2>&1
   status=$?
   # shellcheck disable=SC2046
   res=$(verdict_pick "$out" $(names_of "$@"))
   rm -f "$out"
   if { [ $status -eq 0 ] || { [ $status -eq 1 ] && grep -q '^FAIL ' <<<"$res"; }; } &&
      ! grep -q '^MISSING ' <<<"$res"; then
      printf '%s\n' "$res"
      return
   fi
   # Where the process stopped: before the first case without a result, or
   # after the last case if it reported them all.
   local stop where="before reporting it"
   stop=$(sed -n 's/^MISSING //p' <<<"$res" | head -n 1)
   if [ -z "$stop" ]; then
      stop=$(names_of "${@: -1}")
      where="after reporting it, the last of the batch"
   fi
   stop=${stop% }
   printf '%s\n' "$res" | grep -vE '^(PASS|FAIL|SKIP|MISSING) '
   echo "    ptx_run $(verdict_how $status) on a batch of $#, $where ($stop): each case runs again alone"
   # The batch's end is explained when the case it stopped at, or the one
   # before it (which may die after its result), does not end normally
   # alone; otherwise the case it stopped at fails all the same.
   local alone abnormal=" " before='' p=''
   res=
   for c in "$@"; do
      alone=$(run_alone "$c") || abnormal+="${c##*/} "
      [ "${c##*/}" = "$stop" ] && before=$p
      p=${c##*/}
      res+=$alone$'\n'
   done
   if [[ $abnormal != *" $stop "* ]] && { [ -z "$before" ] || [[ $abnormal != *" $before "* ]]; }; then
      res=$(awk -v stop="$stop" -v why="ptx_run $(verdict_how $status) on its batch $where, though it and the case before it pass alone" '
               /^(PASS|SKIP) / && ($2 == stop || $2 == stop ":") { $0 = "FAIL " stop ": " why } 1' <<<"$res")
   fi
   printf '%s\n' "$res"
}

cores=$(nproc 2>/dev/null || echo 2)
nbatch=0
for ((i = 0; i < ${#cases[@]}; i += BATCH)); do
   while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n; done
   # (2>&1: bash's own report of a crashed ptx_run stays with its batch)
   run_batch "${cases[@]:i:BATCH}" >"$tmp/$nbatch" 2>&1 &
   nbatch=$((nbatch + 1))
done
wait
for ((b = 0; b < nbatch; b++)); do cat "$tmp/$b"; done >"$tmp/all"
# Every case has its one result line, whatever happened above.
# shellcheck disable=SC2046
verdict_pick "$tmp/all" $(names_of "${cases[@]}") | sed 's/^MISSING \(.*\)/FAIL \1: no result (lost by tests\/ptx\/run.sh)/' >"$tmp/final"
cat "$tmp/final"
! grep -q '^FAIL ' "$tmp/final"
