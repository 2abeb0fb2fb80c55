#!/usr/bin/env bash
# tests/unit/prepared.sh — `metalcuda prepare DIR` and the software device's
# use of what it makes (src/metal/soft/prepared.c): a fresh cache reads the
# compiler's identity, the linker's command, the shim and the precompiled
# prelude from DIR instead of making them; a prepared file that fails is
# left alone and the cache makes its own; an empty METALCUDA_PREPARED turns
# the directory off.  One PTX case (tests/ptx) is the program: it must pass
# every time.  Prints one PASS or FAIL line per check.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tool=bin/metalcuda
runner=$BUILD/tests/ptx/ptx_run
case=tests/ptx/cases/add_f32.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { if [ "$2" = ok ]; then echo "PASS prepared_$1"; else echo "FAIL prepared_$1: $2"; fi; }
# the soft/ entries of a directory matching a pattern, counted
count() { find "$1/soft" -maxdepth 1 -name "$2" 2>/dev/null | wc -l; }

if [ ! -x "$tool" ] || [ ! -x "$runner" ]; then
   say made "$tool or $runner is not built (make tests-build)"
   exit 1
fi

# run NAME CACHE [ENV...]: the case with a fresh cache; its log in $tmp/NAME.log
run() {
   local name=$1 cache=$2
   shift 2
   env "$@" METALCUDA_CACHE="$cache" METALCUDA_LOG=info "$runner" "$case" >"$tmp/$name.log" 2>&1 &&
      grep -q '^PASS add_f32.ptx' "$tmp/$name.log"
}

rc=0
if ! "$tool" prepare "$tmp/prep" >"$tmp/prep.log" 2>&1; then
   say made "metalcuda prepare failed: $(tail -n 3 "$tmp/prep.log")"
   exit 1
fi
missing=""
for p in 'pch-*.pch' 'pch-*.h' 'cxx-*.txt' 'ld-*.txt' 'shim-*' 'prelude-*.scan'; do
   [ "$(count "$tmp/prep" "$p")" -eq 1 ] || missing="$missing $p"
done
extra=$(find "$tmp/prep" -mindepth 1 -maxdepth 1 ! -name soft; find "$tmp/prep/soft" -maxdepth 1 -name '*.so')
if [ -z "$missing" ] && [ -z "$extra" ]; then say made ok; else say made "missing:$missing; extra: $extra"; rc=1; fi

# a fresh cache makes only the kernel's library
if run used "$tmp/c1" METALCUDA_PREPARED="$tmp/prep" &&
   [ "$(count "$tmp/c1" 'pch-*')$(count "$tmp/c1" 'cxx-*')$(count "$tmp/c1" 'ld-*')$(count "$tmp/c1" 'shim-*')" = 0000 ] &&
   [ "$(count "$tmp/c1" '*.so')" -eq 1 ] && grep -q "shim in $tmp/prep/soft/shim-" "$tmp/used.log"; then
   say used ok
else
   say used "the case failed, or the cache made its own files: $(ls "$tmp/c1/soft" 2>&1 | tr '\n' ' ')"
   rc=1
fi

# off: the cache makes its own precompiled prelude
if run off "$tmp/c2" METALCUDA_PREPARED= && [ "$(count "$tmp/c2" 'pch-*.pch')" -eq 1 ]; then
   say off ok
else
   say off "the case failed, or no precompiled prelude in the cache: $(ls "$tmp/c2/soft" 2>&1 | tr '\n' ' ')"
   rc=1
fi

# a damaged precompiled prelude: the case still passes, the cache makes its
# own, and the prepared file is not touched
pch=$(find "$tmp/prep/soft" -maxdepth 1 -name 'pch-*.pch')
cp "$pch" "$tmp/pch.good"
echo "not a precompiled header" >"$pch"
if run bad_pch "$tmp/c3" METALCUDA_PREPARED="$tmp/prep" && [ "$(count "$tmp/c3" 'pch-*.pch')" -eq 1 ] &&
   grep -q 'not using .* any more' "$tmp/bad_pch.log" && grep -qx 'not a precompiled header' "$pch"; then
   say bad_pch ok
else
   say bad_pch "$(grep -i 'error\|fail' "$tmp/bad_pch.log" | head -n 3); cache: $(ls "$tmp/c3/soft" 2>&1 | tr '\n' ' ')"
   rc=1
fi
cp "$tmp/pch.good" "$pch"

# a linker command that fails: the case still passes, linked by the driver,
# and the cache keeps a template of its own
ld=$(find "$tmp/prep/soft" -maxdepth 1 -name 'ld-*.txt')
{ echo /bin/false; tail -n +2 "$ld"; } >"$tmp/ld.bad" && cp "$tmp/ld.bad" "$ld"
if run bad_ld "$tmp/c4" METALCUDA_PREPARED="$tmp/prep" && [ "$(count "$tmp/c4" 'ld-*.txt')" -eq 1 ] &&
   grep -q 'not using .* any more' "$tmp/bad_ld.log" && [ "$(head -n 1 "$ld")" = /bin/false ]; then
   say bad_ld ok
else
   say bad_ld "$(grep -i 'error\|fail' "$tmp/bad_ld.log" | head -n 3); cache: $(ls "$tmp/c4/soft" 2>&1 | tr '\n' ' ')"
   rc=1
fi
exit $rc
