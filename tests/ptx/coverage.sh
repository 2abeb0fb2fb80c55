#!/usr/bin/env bash
# tests/ptx/coverage.sh [RESULTS] — regenerates docs/ptx-coverage.md.
#
# Runs the conformance cases (tests/ptx/run.sh) unless RESULTS, a saved
# output of that run, is given, then probes every instruction of the cases
# and of the PTX corpus (tests/ptx/corpus/*.ptx, the generated corpus in
# $MC_TEST_CORPUS (default build/ptx-corpus), and the large one in
# build/ptx-corpus-big when present: tests/ptx/corpus/big.sh) with tests/tools/ptx_coverage.  Commit the result with the
# change that moved it.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tool=$BUILD/tests/tools/ptx_coverage
[ -x "$tool" ] || { echo "coverage.sh: $tool is not built (make unit)" >&2; exit 1; }
results=${1:-}
if [ -z "$results" ]; then
   results=$(mktemp)
   trap 'rm -f "$results"' EXIT
   BUILD=$BUILD bash tests/ptx/run.sh >"$results" || true
fi
corpus=(tests/ptx/corpus/*.ptx)
for d in "${MC_TEST_CORPUS:-build/ptx-corpus}" build/ptx-corpus-big; do
   [ -d "$d" ] && corpus+=("$d"/*.ptx)
done
mkdir -p docs
"$tool" "$results" tests/ptx/cases/*.ptx -- "${corpus[@]}" >docs/ptx-coverage.md
echo "wrote docs/ptx-coverage.md ($(grep -c '^| `' docs/ptx-coverage.md) rows)"
