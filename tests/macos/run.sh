#!/usr/bin/env bash
# tests/macos/run.sh — what can be checked of the macOS build on a machine
# without macOS (issue 15).  One "PASS name" / "FAIL name: why" / "SKIP
# name: why" line per check (tests/run.sh counts them; the `macos` layer).
#
#  asm.FILE.TARGET   every .S of src/ assembles with clang for
#                    arm64-apple-macos14 and x86_64-apple-macos14, and
#                    defines the symbols the C code links against, as
#                    private externs (llvm-nm), Mach-O's leading '_' included
#  c.FILE            every .c of src/ and tools/ (but tools/drvtrace, a
#                    wrapper of NVIDIA's Linux driver) compiles with
#                    -target arm64-apple-macos14 -fsyntax-only -Wall -Wextra
#                    -Werror (the Apple backend too) against the stand-in
#                    headers of tests/macos/include: they declare the part of
#                    macOS's C library the project may use, and leave out
#                    what macOS lacks (pthread_condattr_setclock,
#                    memfd_create, st_mtim, ...), so an unguarded Linux-only
#                    call fails here.  Also with x86_64-apple-macos14 for the
#                    files whose code differs by architecture.
#  exports           src/api/*/exports.darwin name the patterns of the Linux
#                    version scripts
#
# What it cannot catch (docs/mac-checklist.md has the commands that do):
# a declaration of the stand-ins that differs from macOS's real headers
# (argument types, macro values, struct layouts: nothing compiled here
# runs), link errors (no SDK, no ld64 run), the Makefile's Darwin link
# lines, frameworks, Objective-C message names and every run-time
# behaviour.  The software device's objects for macOS (Mach-O) are checked
# by tests/unit/test_soft_objfile.c, which does run them through the same
# code as on a Mac.
#
# Environment: CLANG (default clang), NM (default llvm-nm, then
# llvm-nm-NN).
set -u
cd "$(dirname "$0")/../.."
CLANG=${CLANG:-clang}
TARGETS=(arm64-apple-macos14 x86_64-apple-macos14)
rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$CLANG" --version >/dev/null 2>&1; then
   echo "SKIP macos: $CLANG is not installed"
   exit 0
fi
NM=${NM:-}
if [ -z "$NM" ]; then
   for n in llvm-nm $(compgen -c llvm-nm- | sort -t- -k3 -rn | uniq); do
      if "$n" --version >/dev/null 2>&1; then NM=$n; break; fi
   done
fi

# The symbols each assembly file must define for the C code (the .S name
# -> symbols; fiber files only for their own architecture).
want_syms() {
   case $1:$2 in
   src/compiler/msl/prelude.S:*) echo msl_prelude_text ;;
   src/metal/soft/shim.S:*) echo soft_shim_start soft_shim_end ;;
   src/metal/soft/fiber_arm64.S:arm64-*) echo soft_fiber_switch soft_fiber_trampoline ;;
   src/metal/soft/fiber_x86_64.S:x86_64-*) echo soft_fiber_switch soft_fiber_trampoline ;;
   src/libs/cublas/kernels.S:*) echo cb_kernels_ptx ;;
   esac
}

for f in $(find src -name '*.S' | sort); do
   for t in "${TARGETS[@]}"; do
      name="asm.$(basename "$f").$t"
      obj=$tmp/$(basename "$f" .S).$t.o
      # src/libs/*/kernels.S embed a PTX file of the build: a stand-in here
      inc=.
      case $f in src/libs/*) mkdir -p "$tmp/ptx" && : >"$tmp/ptx/kernels.ptx" && inc=$tmp/ptx ;; esac
      if ! out=$("$CLANG" -target "$t" -Wa,-I,"$inc" -c "$f" -o "$obj" 2>&1) || [ -n "$out" ]; then
         echo "FAIL $name: $(printf '%s' "$out" | head -n 3 | tr '\n' ' ')"
         rc=1
         continue
      fi
      syms=$(want_syms "$f" "$t")
      if [ -n "$syms" ] && [ -z "$NM" ]; then
         echo "SKIP $name: assembles; no llvm-nm to check its symbols"
         continue
      fi
      missing=
      for s in $syms; do
         "$NM" -m "$obj" 2>/dev/null | grep -qE "private external _$s\$" || missing="$missing _$s"
      done
      if [ -n "$missing" ]; then
         echo "FAIL $name: no private external$missing"
         rc=1
      else
         echo "PASS $name"
      fi
   done
done

# The C sources.  -nostdlibinc keeps clang's own headers (stddef.h,
# stdint.h, stdatomic.h...) and drops this system's C library.
CFLAGS=(-std=c11 -fsyntax-only -Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes
        -Werror -nostdlibinc -isystem tests/macos/include -pthread -Isrc -I"$tmp")
mkdir -p "$tmp/gen" && printf '#define MC_COMPILER_ID "macos-check"\n' >"$tmp/compiler_id.h"
# tools/drvtrace is not part of metalcuda: an instrument that wraps
# NVIDIA's libcuda, which exists only on Linux (its README).
for f in $(find src tools -name '*.c' -not -path 'tools/drvtrace/*' | sort); do
   ts=(arm64-apple-macos14)
   # architecture-specific code: the Apple backend (_stret, BOOL), the
   # soft device's fault handling and compiler flags
   case $f in src/metal/apple/*|src/metal/soft/*) ts+=(x86_64-apple-macos14) ;; esac
   fail=
   for t in "${ts[@]}"; do
      # the math libraries are clients of the public headers (include/)
      extra=()
      case $f in src/libs/*) extra=(-Iinclude) ;; esac
      if ! out=$("$CLANG" -target "$t" "${CFLAGS[@]}" "${extra[@]}" "$f" 2>&1) || [ -n "$out" ]; then
         fail="$t: $(printf '%s' "$out" | grep -m 3 -E 'error|warning' | tr '\n' ' ')"
         break
      fi
   done
   if [ -n "$fail" ]; then
      echo "FAIL c.${f#src/}: $fail"
      rc=1
   else
      echo "PASS c.${f#src/}"
   fi
done

# The exported-symbol lists against the version scripts: the same
# patterns, Mach-O's underscore added.
patterns_map() { sed -n '/global:/,/local:/p' "$1" | grep -vE 'global:|local:' | tr -d ' ;\t' | sed 's/^/_/' | sort; }
patterns_darwin() { grep -v '^#' "$1" | grep . | sort; }
if diff <(patterns_map src/api/driver/exports.map) <(patterns_darwin src/api/driver/exports.darwin) >/dev/null &&
   diff <(patterns_map src/api/runtime/exports.map.in) <(patterns_darwin src/api/runtime/exports.darwin) >/dev/null &&
   ! grep -v '^#' src/libs/cublas/exports.13 | grep -v '^cublas' | grep -q .; then
   echo "PASS exports"
else
   echo "FAIL exports: src/api/*/exports.darwin and the version scripts name different symbols (or src/libs/cublas/exports.13 a name _cublas* does not cover)"
   rc=1
fi
exit $rc
