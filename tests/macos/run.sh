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
#  dylib.cudart.N    libcudart.N.dylib (N = 13, 12, 11.0) linked for
#                    arm64-apple-macos14 with ld64.lld from the runtime's
#                    objects compiled against the stand-ins, with the
#                    Makefile's exported-symbol list (build/cudart.N.exp):
#                    .12 and .11.0 export exactly NVIDIA's names of that
#                    version (exports.12, exports.11.0, issue 16), and the
#                    CUDA 12 forms of the names CUDA 13 changed are the
#                    ones exported there (not the weak CUDA 13 forms)
#
# What it cannot catch (docs/mac-checklist.md has the commands that do):
# a declaration of the stand-ins that differs from macOS's real headers
# (argument types, macro values, struct layouts: nothing compiled here
# runs), link errors against the SDK (no libSystem here: the dylib check
# links with -undefined dynamic_lookup), the rest of the Makefile's Darwin
# link lines, frameworks, Objective-C message names and every run-time
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
   src/libs/curand/kernels.S:*) echo cr_kernels_ptx ;;
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
printf '#define MC_SOFT_SCAN_ID "macos-check"\n' >"$tmp/soft_scan_id.h"
printf '#define MC_SOFT_SHIM_SHA256 "%064d"\n' 0 >"$tmp/soft_shim_digest.h"
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
   ! grep -v '^#' src/libs/cublas/exports.13 | grep -v '^cublas' | grep -q . &&
   ! grep -v '^#' src/libs/curand/exports.10 | grep -v '^curand' | grep -q .; then
   echo "PASS exports"
else
   echo "FAIL exports: src/api/*/exports.darwin and the version scripts name different symbols (or src/libs/cublas/exports.13, src/libs/curand/exports.10 a name _cublas*, _curand* does not cover)"
   rc=1
fi
# libcudart's three dylibs, linked as the Makefile links them on macOS
# (ld64.lld stands in for ld64; no SDK, so undefined symbols are left to
# dyld).  Skipped without a Mach-O linker.
LLD=${LLD:-}
if [ -z "$LLD" ]; then
   for l in ld64.lld lld; do
      if "$l" -flavor darwin --version >/dev/null 2>&1 || "$l" --version 2>/dev/null | grep -q LLD; then LLD=$l; break; fi
   done
fi
RT_FLAGS=(-target arm64-apple-macos14 -std=c11 -O0 -fPIC -fvisibility=hidden -nostdlibinc -isystem tests/macos/include
          -pthread -Isrc -I"$tmp" -c)
if [ -z "$LLD" ] || [ -z "$NM" ]; then
   echo "SKIP dylib.cudart: no Mach-O linker (ld64.lld) or llvm-nm"
else
   mkdir -p "$tmp/rt"
   rt_fail=
   for f in src/api/runtime/*.c src/util/*.c; do
      case $f in src/api/runtime/version.c) continue ;; esac
      "$CLANG" "${RT_FLAGS[@]}" "$f" -o "$tmp/rt/$(echo "${f%.c}" | tr / _).o" 2>/dev/null || rt_fail="$rt_fail $f"
   done
   for v in 13:13000 12:12090 11.0:11080; do
      n=${v%%:*}
      if [ -n "$rt_fail" ]; then echo "FAIL dylib.cudart.$n: cannot compile$rt_fail"; rc=1; continue; fi
      "$CLANG" "${RT_FLAGS[@]}" -DMC_CUDART_RUNTIME_VERSION="${v#*:}" src/api/runtime/version.c -o "$tmp/rt/version.$n.o"
      objs=$(ls "$tmp"/rt/src_*.o | grep -v '_abi1[12]\.o$')
      case $n in 12) objs="$objs $tmp/rt/src_api_runtime_abi12.o" ;;
                 11.0) objs="$objs $tmp/rt/src_api_runtime_abi12.o $tmp/rt/src_api_runtime_abi11.o" ;; esac
      lib=$tmp/libcudart.$n.dylib
      if ! make -s BUILD="$tmp/mk" "$tmp/mk/cudart.$n.exp" >/dev/null 2>&1 ||
         ! out=$("$LLD" -flavor darwin -arch arm64 -platform_version macos 14.0 14.0 -dylib -undefined dynamic_lookup \
                 -install_name "@rpath/libcudart.$n.dylib" -exported_symbols_list "$tmp/mk/cudart.$n.exp" \
                 -o "$lib" $objs "$tmp/rt/version.$n.o" 2>&1); then
         echo "FAIL dylib.cudart.$n: link: $(printf '%s' "$out" | head -3 | tr '\n' ' ')"; rc=1; continue
      fi
      "$NM" -gU "$lib" | awk '{ print $3 }' | sort >"$tmp/got.$n"
      why=
      if [ "$n" = 13 ]; then
         # the patterns: every export matches one, and the CUDA 13 API is there
         grep -qx _cudaMalloc "$tmp/got.$n" && grep -qx ___cudaRegisterFatBinary "$tmp/got.$n" ||
            why="cudaMalloc or __cudaRegisterFatBinary not exported"
         bad=$(grep -vE '^(_cuda[A-Z].*|___cuda.*|___hip.*|_hipLaunchKernel|_hipLaunchKernel_spt)$' "$tmp/got.$n" | head -3)
         [ -n "$bad" ] && why="exports outside exports.darwin: $bad"
      else
         awk '/^[^#]/ { print "_" $1 }' "src/api/runtime/exports.$n" | sort >"$tmp/want.$n"
         d=$(diff "$tmp/want.$n" "$tmp/got.$n" | grep '^[<>]' | head -4 | tr '\n' ' ')
         [ -n "$d" ] && why="exports differ from exports.$n (< missing, > extra): $d"
         # CUDA 12's forms, strong, in place of CUDA 13's weak ones
         for s in _cudaMemPrefetchAsync _cudaMemAdvise _cudaGetDeviceProperties _cudaPointerGetAttributes; do
            "$NM" -m "$lib" | grep -qE "external $s\$" && ! "$NM" -m "$lib" | grep -qE "weak external $s\$" ||
               why="$why $s is not the strong CUDA 12 form"
         done
      fi
      if [ -n "$why" ]; then echo "FAIL dylib.cudart.$n: $why"; rc=1; else echo "PASS dylib.cudart.$n"; fi
   done
fi
exit $rc
