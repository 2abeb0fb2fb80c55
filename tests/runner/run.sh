#!/usr/bin/env bash
# tests/runner/run.sh — tests the layer runners themselves (the runner
# layer of tests/run.sh): tests/unit, tests/msl and tests/ptx run.sh each
# run on fixtures — fake test binaries and runners (fake_*.sh) with cases
# that pass, fail, skip, crash, print PASS and then exit non-zero, report
# nothing, or report twice — and their exact counts, failing names and exit
# status are checked.  One "PASS name" or "FAIL name: why" line per check.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
fix=$(mktemp -d)
trap 'rm -rf "$fix"' EXIT
rc=0

# check NAME WANT_COUNTS WANT_FAILS -- COMMAND... — runs COMMAND (a layer
# runner), counts its lines as tests/run.sh does and compares "P passed, F
# failed, S skipped, status X" and the sorted names of its FAIL lines.
check() {
   local name=$1 want=$2 want_fails=$3 got fails status
   shift 4
   "$@" >"$fix/out" 2>&1
   status=$?
   got="$(grep -c '^PASS ' "$fix/out") passed, $(grep -c '^FAIL ' "$fix/out") failed, $(grep -c '^SKIP ' "$fix/out") skipped, status $status"
   fails=$(sed -n 's/^FAIL \([^:]*\):.*/\1/p' "$fix/out" | sort | tr '\n' ' ')
   fails=${fails% }
   if [ "$got" = "$want" ] && [ "$fails" = "$want_fails" ]; then
      echo "PASS $name: $got"
   else
      echo "FAIL $name: got $got, expected $want; failing: got '$fails', expected '$want_fails'"
      sed 's/^/    /' "$fix/out"
      rc=1
   fi
}

# ---- tests/ptx/run.sh: 40 cases, batches of 16 ----
# batch 1 crashes at p04 (p05 and p10 fail after it); batch 2 ends early
# after p16's PASS (status 3), reports nothing for p21, twice for p23 and
# crashes at p24 and p25; batch 3 crashes at p34, which passes alone.
mkdir -p "$fix/ptx" "$fix/ptx_ok"
declare -A ptx=([02]=fail [04]=crash [05]=fail [10]=fail [16]=pass-exit [21]=silent [22]=skip [23]=twice
                [24]=crash [25]=crash [34]=crash-unless-first)
for i in $(seq -w 0 39); do
   echo "// fixture: ${ptx[$i]:-pass}" >"$fix/ptx/p$i.ptx"
   echo "// fixture: pass" >"$fix/ptx_ok/p$i.ptx"
done
echo "// fixture: skip" >"$fix/ptx_ok/p07.ptx"
check runner_ptx "30 passed, 9 failed, 1 skipped, status 1" \
   "p02.ptx p04.ptx p05.ptx p10.ptx p16.ptx p21.ptx p24.ptx p25.ptx p34.ptx" -- \
   env PTX_RUN=tests/runner/fake_case_runner.sh bash tests/ptx/run.sh "$fix"/ptx/*.ptx
check runner_ptx_clean "39 passed, 0 failed, 1 skipped, status 0" "" -- \
   env PTX_RUN=tests/runner/fake_case_runner.sh bash tests/ptx/run.sh "$fix"/ptx_ok/*.ptx
check runner_ptx_missing "0 passed, 40 failed, 0 skipped, status 1" \
   "$(for i in $(seq -w 0 39); do printf 'p%s.ptx ' "$i"; done | sed 's/ $//')" -- \
   env PTX_RUN="$fix/no_ptx_run" bash tests/ptx/run.sh "$fix"/ptx/*.ptx

# ---- tests/msl/run.sh: one process per case ----
mkdir -p "$fix/msl"
for w in pass fail skip crash pass-exit silent twice; do echo "// fixture: $w" >"$fix/msl/m_$w.metal"; done
check runner_msl "2 passed, 4 failed, 1 skipped, status 1" "m_crash m_fail m_pass-exit m_silent" -- \
   env MSL_RUN=tests/runner/fake_case_runner.sh FAKE_STRIP_EXT=1 bash tests/msl/run.sh "$fix"/msl/*.metal
check runner_msl_missing "0 passed, 7 failed, 0 skipped, status 1" \
   "m_crash m_fail m_pass m_pass-exit m_silent m_skip m_twice" -- \
   env MSL_RUN="$fix/no_msl_run" bash tests/msl/run.sh "$fix"/msl/*.metal

# ---- tests/unit/run.sh: binaries that know their tests (--list) ----
mkdir -p "$fix/unit"
fake_unit() {   # NAME 'TEST:WHAT ...' [STATUS]
   printf '#!/usr/bin/env bash\nexec bash %q %q %q "$@"\n' "$ROOT/tests/runner/fake_unit_test.sh" "$2" "${3:-}" \
      >"$fix/unit/$1"
   chmod +x "$fix/unit/$1"
}
fake_unit test_ok "a:pass b:pass c:skip"
fake_unit test_fails "d:pass e:fail"
fake_unit test_crash "f:pass g:crash h:pass i:fail"
fake_unit test_exit "j:pass k:pass" 3
fake_unit test_empty ""
fake_unit test_twice "l:twice"
check runner_unit "7 passed, 7 failed, 1 skipped, status 1" "e g h i test_empty test_exit test_missing" -- \
   env UNIT_BINDIR="$fix/unit" bash tests/unit/run.sh test_ok test_fails test_crash test_exit test_missing \
   test_empty test_twice
check runner_unit_clean "2 passed, 0 failed, 1 skipped, status 0" "" -- \
   env UNIT_BINDIR="$fix/unit" bash tests/unit/run.sh test_ok
exit $rc
