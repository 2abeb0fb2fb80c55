# shellcheck shell=bash
# tests/tools/in_order.sh — sourced by the layer runners that run whole
# programs (tests/cuda, tests/toolchain, tests/libs run.sh): a cold run is
# mostly the host compiler translating kernels, one process each, so they
# run one program per core and still print in a fixed order.

# run_in_order FUNC JOBS SERIAL NAME... — runs `FUNC NAME` for each NAME,
# JOBS at a time, each into a file of its own, then prints the outputs in
# the order of the NAMEs.  A NAME for which `SERIAL NAME` succeeds (SERIAL
# "" for none), or every NAME when JOBS is 1, runs alone after the others.
# Returns 1 if any FUNC returned non-zero.  With MC_TEST_TIMES set, each
# NAME's wall seconds are appended to that file ("NAME SECONDS"), to find
# what makes a layer slow.
run_in_order() {
   local func=$1 jobs=$2 serial_of=$3 dir n running=0 rc=0
   shift 3
   local alone=()
   dir=$(mktemp -d)
   for n in "$@"; do
      if [ "$jobs" -le 1 ] || { [ -n "$serial_of" ] && "$serial_of" "$n"; }; then
         alone+=("$n")
         continue
      fi
      { in_order_timed "$func" "$n" >"$dir/$n.out" 2>&1; echo $? >"$dir/$n.rc"; } &
      running=$((running + 1))
      if [ $running -ge "$jobs" ]; then
         wait -n
         running=$((running - 1))
      fi
   done
   wait
   for n in ${alone[@]+"${alone[@]}"}; do
      in_order_timed "$func" "$n" >"$dir/$n.out" 2>&1
      echo $? >"$dir/$n.rc"
   done
   for n in "$@"; do
      cat "$dir/$n.out"
      [ "$(cat "$dir/$n.rc")" = 0 ] || rc=1
   done
   rm -rf "$dir"
   return $rc
}

# marked_serial NAME — tests/cuda/NAME.cu says `// serial: why` in a line of
# its own (timing it cannot share).
marked_serial() { grep -q '^// serial:' "tests/cuda/$1.cu" 2>/dev/null; }

# in_order_timed FUNC NAME — runs `FUNC NAME`, noting its time in
# $MC_TEST_TIMES if set; FUNC's status.
in_order_timed() {
   local start=$SECONDS rc
   "$1" "$2"
   rc=$?
   [ -n "${MC_TEST_TIMES:-}" ] && echo "$2 $((SECONDS - start))" >>"$MC_TEST_TIMES"
   return $rc
}
