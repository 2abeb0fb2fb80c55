# shellcheck shell=bash
# tests/tools/verdicts.sh — sourced by the layer runners (tests/unit,
# tests/msl, tests/ptx run.sh): the one way they read a test process's
# output, so that a layer reports exactly one result per expected case,
# never fewer (a crash) and never more (a line printed twice, or for a name
# nobody asked for).

# verdict_pick OUT NAME... — the output file OUT of a process that was to
# report on NAME...: its lines in order, where the first "PASS|FAIL|SKIP
# NAME[: ...]" line of each NAME is kept as it is and every other line is
# indented (shown, never counted by tests/run.sh); then "MISSING NAME" for
# each NAME that has no result line.
verdict_pick() {
   local out=$1
   shift
   awk -v names="$*" '
      BEGIN { n = split(names, want, " "); for (i = 1; i <= n; i++) wanted[want[i]] = 1 }
      {
         name = $2
         sub(/:$/, "", name)
         if ($0 ~ /^(PASS|FAIL|SKIP) / && (name in wanted) && !(name in seen)) {
            seen[name] = 1
            print
         } else if ($0 ~ /^    /) {
            print
         } else {
            print "    " $0
         }
      }
      END { for (i = 1; i <= n; i++) if (!(want[i] in seen)) print "MISSING " want[i] }' "$out"
}

# verdict_how STATUS — how a process ended, in words (bash gives 128+N for
# a process killed by signal N).
verdict_how() {
   if [ "$1" -gt 128 ]; then
      echo "killed by signal $(($1 - 128))"
   else
      echo "exited with status $1"
   fi
}
