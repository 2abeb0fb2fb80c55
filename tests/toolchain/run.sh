#!/usr/bin/env bash
# tests/toolchain/run.sh — the source path (issue 14): every tests/cuda
# program built with metalcuda's own nvcc-compatible driver (bin/metalcuda
# nvcc) with NVIDIA's toolkit hidden from PATH, then run directly (./prog:
# the run path the driver writes finds our libcudart), and a build under
# strace that must open no file of an NVIDIA installation.
#
# Prints PASS/FAIL/SKIP lines (tests/run.sh counts them).  Programs listed
# in known_gaps are SKIP with their reason while they fail, FAIL once they
# pass (remove the line).  Without a clang that has the NVPTX back end
# every program is a SKIP, never a PASS.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/in_order.sh
ROOT=$PWD
BUILD=${BUILD:-build}
TOOL=$ROOT/bin/metalcuda
OUT=$ROOT/$BUILD/tests/toolchain
TIMEOUT=${MC_CUDA_TIMEOUT:-120}
export METALCUDA_CACHE=${METALCUDA_CACHE:-$ROOT/$BUILD/test-cache}
mkdir -p "$OUT"
# NVIDIA's toolkit off PATH: nothing here may find nvcc, ptxas or fatbinary
export PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd: -)

names=() separate=0 undefined=0 refused=0 header=0 benches=0
for n in "$@"; do
   case $n in
      bench_builds) benches=1 ;;
      rdc_separate) separate=1 ;;
      rdc_undefined) undefined=1 ;;
      shared_refused) refused=1 ;;
      shared_header) header=1 ;;
      *) names+=("$n") ;;
   esac
done
[ $# -eq 0 ] && separate=1 undefined=1 refused=1 header=1
[ $# -eq 0 ] && [ -n "${MC_TEST_FULL:-}" ] && benches=1
if [ ${#names[@]} -eq 0 ] && [ $# -eq 0 ]; then
   for f in tests/cuda/*.cu; do
      case $f in *.[0-9].cu) continue ;; esac   # another unit of NAME.cu (tests/cuda/run.sh)
      # a `// heavy:` program runs once in make test, in the cuda layer
      # (tests/cuda/README.md); here under MC_TEST_FULL or when named
      if [ -z "${MC_TEST_FULL:-}" ] && grep -q '^// heavy:' "$f"; then
         echo "SKIP driver.$(basename "$f" .cu): heavy (its '// heavy:' line); the cuda layer ran it, make test-full runs this build too"
         continue
      fi
      names+=("$(basename "$f" .cu)")
   done
fi
if [ ! -x "$TOOL" ] || [ ! -f lib/metalcuda/devlib.bc ]; then
   for n in "${names[@]}"; do echo "SKIP driver.$n: no clang with the NVPTX back end (install clang-19), so no device library"; done
   exit 0
fi
gap() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' tests/toolchain/known_gaps; }

build_one() {
   local n=$1 src=tests/cuda/$1.cu exe=$OUT/$1
   local units=(tests/cuda/"$1".[0-9].cu)
   [ -e "${units[0]}" ] || units=()
   if [ -x "$exe" ] && [ "$exe" -nt "$src" ] && [ -z "$(find "${units[@]}" -newer "$exe" -print -quit 2>/dev/null)" ] && [ "$exe" -nt "$TOOL" ] && [ "$exe" -nt lib/metalcuda/devlib.bc ] &&
      [ -z "$(find include tests/cuda/check.h tests/cuda/drv_check.h tests/cuda/tex_model.h $(ls tests/cuda/"$1"_expected.h 2>/dev/null) -newer "$exe" -print -quit)" ]; then
      return 0
   fi
   rm -f "$exe"
   # shellcheck disable=SC2046
   "$TOOL" nvcc -O2 -Xcompiler -ffp-contract=off -Itests/cuda \
      $(sed -n 's|^// nvcc-flags: *||p' "$src" | head -n 1) "$src" "${units[@]}" -o "$exe" >"$exe.log" 2>&1 || rm -f "$exe"
}
running=0
for n in "${names[@]}"; do
   build_one "$n" &
   running=$((running + 1))
   if [ $running -ge "$(nproc 2>/dev/null || echo 2)" ]; then wait -n; running=$((running - 1)); fi
done
wait

# One program: runs it and prints its line; returns 1 if it failed.
run_one() {
   local n=$1 exe=$OUT/$1 why msg t out st verdict
   why=$(gap "$n")
   if [ ! -x "$exe" ]; then
      msg="driver build failed: $(grep -m1 -E 'error' "$exe.log" 2>/dev/null || tail -n 1 "$exe.log")"
   else
      t=$(sed -n 's|^// timeout: *\([0-9][0-9]*\).*|\1|p' "tests/cuda/$n.cu" | head -n 1)   # as tests/cuda/run.sh
      out=$(cd "$OUT" && timeout "${t:-$TIMEOUT}" env -u LD_LIBRARY_PATH "$exe" 2>&1)
      st=$?
      verdict=$(printf '%s\n' "$out" | grep -E "^(PASS|FAIL|SKIP) $n( |:|$)" | tail -n 1)
      if [ $st -eq 0 ] && [[ $verdict == PASS* ]]; then
         if [ -n "$why" ]; then echo "FAIL driver.$n: passes, but is listed in tests/toolchain/known_gaps"; return 1; fi
         echo "PASS driver.$n${verdict#PASS $n}"
         return 0
      fi
      if [ $st -eq 0 ] && [[ $verdict == SKIP* ]]; then echo "SKIP driver.$n${verdict#SKIP $n}"; return 0; fi
      msg="${verdict:-exited with status $st}"
   fi
   if [ -n "$why" ]; then echo "SKIP driver.$n: known gap: $why"; return 0; fi
   echo "FAIL driver.$n: $msg"
   return 1
}

# One program per core, printed in name order (tests/tools/in_order.sh);
# one marked `// serial:` runs alone.
rc=0
run_in_order run_one "$(nproc 2>/dev/null || echo 2)" marked_serial "${names[@]}" || rc=1

# The examples (examples/make, examples/cmake) built with an installed tree
# (make install PREFIX=...), NVIDIA's toolkit off PATH, and run; the make
# example also with NVIDIA's nvcc's name nowhere in its command line.
examples() {
   local prefix=$OUT/install log=$OUT/install.log
   if ! make --no-print-directory install PREFIX="$prefix" >"$log" 2>&1; then
      echo "FAIL driver.example_make: make install failed: $(tail -n 1 "$log")"
      echo "FAIL driver.example_cmake: make install failed"
      return 1
   fi
   local r=0 dir=$OUT/example_make
   rm -rf "$dir" && cp -r examples/make "$dir"
   if ! make --no-print-directory -C "$dir" NVCC="$prefix/bin/nvcc" >"$dir.log" 2>&1; then
      echo "FAIL driver.example_make: the build failed: $(grep -m1 -i error "$dir.log" || tail -n 1 "$dir.log")"; r=1
   elif out=$(env -u LD_LIBRARY_PATH "$dir/reduce" 2>&1) && [[ $out == PASS* ]]; then
      echo "PASS driver.example_make ($out)"
   else
      echo "FAIL driver.example_make: $out"; r=1
   fi
   # make install prepared the installed tree's first-compile files
   # (src/metal/soft/prepared.c): a fresh cache takes them from there
   local fresh=$OUT/install_cache prep
   prep=$(realpath "$prefix")/lib/metalcuda/prepared/soft
   rm -rf "$fresh"
   if out=$(env -u LD_LIBRARY_PATH METALCUDA_CACHE="$fresh" METALCUDA_LOG=info "$dir/reduce" 2>&1) &&
      grep -q '^PASS' <<<"$out" && grep -qF "shim in $prep/shim-" <<<"$out" &&
      ! compgen -G "$fresh/soft/pch-*" >/dev/null && compgen -G "$fresh/soft/*.so" >/dev/null; then
      echo "PASS driver.install_prepared"
   else
      echo "FAIL driver.install_prepared: a fresh cache did not use $prep: $(grep -m2 -iE 'prepared|shim|error' <<<"$out")"; r=1
   fi
   if ! command -v cmake >/dev/null 2>&1; then
      echo "SKIP driver.example_cmake: cmake not found"
      return $r
   fi
   dir=$OUT/example_cmake
   rm -rf "$dir"
   if ! { cmake -S examples/cmake -B "$dir" -DCMAKE_CUDA_COMPILER="$prefix/bin/nvcc" && cmake --build "$dir"; } >"$dir.log" 2>&1; then
      echo "FAIL driver.example_cmake: configure or build failed: $(grep -m1 -iE 'error' "$dir.log" || tail -n 1 "$dir.log")"; r=1
   elif out=$(env -u LD_LIBRARY_PATH "$dir/histogram" 2>&1) && [[ $out == PASS* ]]; then
      echo "PASS driver.example_cmake ($out)"
   else
      echo "FAIL driver.example_cmake: $out"; r=1
   fi
   return $r
}
if [ $# -eq 0 ]; then examples || rc=1; fi

# Separate compilation as build systems do it, on tests/cuda/rdc_units
# (two units): -dc then a link by nvcc; -dc, -dlink, then a link by the
# host compiler (CMake's way, and a second nvcc link given the device-link
# object must not device-link again); unit 2 in a static library (-lib)
# found by -L/-l; hipcc -fgpu-rdc.
rdc_separate() {
   local dir=$OUT/rdc_separate u1=$ROOT/tests/cuda/rdc_units.cu u2=$ROOT/tests/cuda/rdc_units.2.cu
   local nv=("$TOOL" nvcc -O2 -Xcompiler -ffp-contract=off -I"$ROOT/tests/cuda") r=0 how out
   rm -rf "$dir" && mkdir -p "$dir"
   run_step() {   # NAME EXE COMMAND...: build with COMMAND, then run EXE
      local what=$1 exe=$2
      shift 2
      if ! (cd "$dir" && "$@") >"$dir/$what.log" 2>&1; then
         echo "FAIL driver.rdc_separate: $what: the build failed: $(grep -m1 -iE 'error|undefined' "$dir/$what.log" || tail -n 1 "$dir/$what.log")"
         return 1
      fi
      out=$(cd "$dir" && timeout "$TIMEOUT" env -u LD_LIBRARY_PATH "./$exe" 2>&1 | tail -n 1)
      if [[ $out != "PASS rdc_units "* ]]; then echo "FAIL driver.rdc_separate: $what: $out"; return 1; fi
   }
   run_step dc_link p1 bash -c "$(printf '%q ' "${nv[@]}") -dc $u1 $u2 && $(printf '%q ' "${nv[@]}") rdc_units.o rdc_units.2.o -o p1" || r=1
   run_step dlink_host_link p2 bash -c "$(printf '%q ' "${nv[@]}") -dlink rdc_units.o rdc_units.2.o -o dlink.o && c++ rdc_units.o rdc_units.2.o dlink.o -L$ROOT/lib -Wl,-rpath,$ROOT/lib -lcudart -o p2" || r=1
   run_step dlink_nvcc_link p3 "${nv[@]}" rdc_units.o rdc_units.2.o dlink.o -o p3 || r=1
   run_step static_library p4 bash -c "$(printf '%q ' "${nv[@]}") -lib -rdc=true $u2 -o libru.a && $(printf '%q ' "${nv[@]}") -dc $u1 -o main.o && $(printf '%q ' "${nv[@]}") main.o -L. -lru -o p4" || r=1
   run_step hipcc_fgpu_rdc p5 "$TOOL" hipcc -O2 -fgpu-rdc -I"$ROOT/tests/cuda" "$u1" "$u2" -o p5 || r=1
   [ $r -eq 0 ] && echo "PASS driver.rdc_separate (-dc and link, -dlink and a host-compiler link, -dlink object given to nvcc's link, a -lib archive through -L/-l, hipcc -fgpu-rdc)"
   return $r
}
if [ $separate -eq 1 ]; then rdc_separate || rc=1; fi

# __shared__ variables of class type the driver does not rewrite
# (tests/toolchain/shared_refused.cu: a macro's, two in one declaration,
# one at namespace scope, and one it could rewrite): the build fails with
# clang's error for each of the five and one line of the driver's for
# each of the four others, saying why.  A device compile failing
# with another error only is run once and its error shown once.
shared_refused() {
   local dir=$OUT/shared_refused src=$ROOT/tests/toolchain/shared_refused.cu r=0 log n why
   rm -rf "$dir" && mkdir -p "$dir"
   log=$dir/refused.log
   if (cd "$dir" && "$TOOL" nvcc -v -c "$src" -o r.o) >"$log" 2>&1; then
      echo "FAIL driver.shared_refused: the build succeeded"; return 1
   fi
   n=$(grep -c "error: initialization is not supported for __shared__ variables" "$log")
   [ "$n" = 5 ] || { echo "FAIL driver.shared_refused: $n of clang's errors, expected 5"; r=1; }
   n=$(grep -c -- '--cuda-device-only' "$log")
   [ "$n" = 1 ] || { echo "FAIL driver.shared_refused: $n device compiles, expected 1 (no rewrite)"; r=1; }
   for why in "from_macro:it comes from a macro expansion" \
              "first:it shares its declaration with other variables" \
              "second:it shares its declaration with other variables" \
              "at_namespace:it is not declared in a function"; do
      n=$(grep -c "^nvcc: $src:[0-9]*: __shared__ variable '${why%%:*}': nvcc accepts it and runs no constructor or destructor for it; metalcuda cannot rewrite it into raw shared storage: ${why#*:}" "$log")
      [ "$n" = 1 ] || { echo "FAIL driver.shared_refused: ${why%%:*}: $n lines saying why, expected 1: $(grep -m1 "'${why%%:*}'" "$log")"; r=1; }
   done
   n=$(grep -c "^nvcc: " "$log")
   [ "$n" = 4 ] || { echo "FAIL driver.shared_refused: $n lines of the driver's, expected 4"; r=1; }
   printf 'struct P { float x = 1.0f; __device__ ~P() {} };\n__global__ void k(float *o) { o[0] = not_declared; }\n' >"$dir/other.cu"
   (cd "$dir" && "$TOOL" nvcc -v -c other.cu -o o.o) >"$dir/other.log" 2>&1
   n=$(grep -c -- '--cuda-device-only' "$dir/other.log")
   [ "$n" = 1 ] || { echo "FAIL driver.shared_refused: another error: $n device compiles, expected 1"; r=1; }
   n=$(grep -c "error: use of undeclared identifier 'not_declared'" "$dir/other.log")
   [ "$n" = 1 ] || { echo "FAIL driver.shared_refused: another error shown $n times, expected once"; r=1; }
   [ $r -eq 0 ] && echo "PASS driver.shared_refused (a macro's, two in one declaration, one at namespace scope: clang's error and the driver's reason each; another error: one compile, shown once)"
   return $r
}
if [ $refused -eq 1 ]; then shared_refused || rc=1; fi

# __shared__ variables of class type in the source and in a header it
# includes with quotes (tests/toolchain/shared_header.cu, .cuh), both
# rewritten: -MD's dependencies name the two files (not the rewritten
# copies), and the program passes.
shared_header() {
   local dir=$OUT/shared_header src=$ROOT/tests/toolchain/shared_header.cu out
   rm -rf "$dir" && mkdir -p "$dir"
   if ! (cd "$dir" && "$TOOL" nvcc -O2 -MD -c "$src" -o sh.o && "$TOOL" nvcc sh.o -o sh) >"$dir/build.log" 2>&1; then
      echo "FAIL driver.shared_header: the build failed: $(grep -m1 error "$dir/build.log" || tail -n 1 "$dir/build.log")"; return 1
   fi
   if ! grep -q "shared_header\.cuh" "$dir/sh.d" || ! grep -q "^sh\.o: $src" "$dir/sh.d" || grep -q "metalcuda-nvcc" "$dir/sh.d"; then
      echo "FAIL driver.shared_header: sh.d does not name the source and the header (only): $(head -c 300 "$dir/sh.d")"; return 1
   fi
   out=$(cd "$dir" && timeout "$TIMEOUT" env -u LD_LIBRARY_PATH ./sh 2>&1)
   if [[ $out != "PASS shared_header "* ]]; then echo "FAIL driver.shared_header: $out"; return 1; fi
   echo "PASS driver.shared_header (a __shared__ array of class type in a header, a scalar in the source; -MD names both files)"
}
if [ $header -eq 1 ]; then shared_header || rc=1; fi

# The device link refuses a device function no unit defines, as nvlink
# does, naming it and the object that refers to it (tests/toolchain/
# rdc_undefined.cu, whose other external names are the runtime's): in the
# link of -rdc=true sources, in nvcc's link of -dc objects, in -dlink of an
# object and of a -lib archive.  Each build must fail, write nothing and
# report that one symbol once.
rdc_undefined() {
   local dir=$OUT/rdc_undefined src=$ROOT/tests/toolchain/rdc_undefined.cu
   local nv=("$TOOL" nvcc -O2 -I"$ROOT/tests/cuda") r=0 sym=_Z12mc_undefinedi
   rm -rf "$dir" && mkdir -p "$dir"
   refused() {   # NAME OUTPUT FILE-IN-MESSAGE COMMAND...
      local what=$1 made=$2 file=$3 n
      shift 3
      if (cd "$dir" && "$@") >"$dir/$what.log" 2>&1; then
         echo "FAIL driver.rdc_undefined: $what: the build succeeded"; return 1
      fi
      if [ -e "$dir/$made" ]; then echo "FAIL driver.rdc_undefined: $what: $made was written"; return 1; fi
      n=$(grep -c "^nvlink error   : Undefined reference to " "$dir/$what.log")
      if [ "$n" != 1 ] || ! grep -q "^nvlink error   : Undefined reference to '$sym' in '$file'\$" "$dir/$what.log"; then
         echo "FAIL driver.rdc_undefined: $what: expected one \"Undefined reference to '$sym' in '$file'\": $(head -c 400 "$dir/$what.log")"
         return 1
      fi
   }
   refused rdc_true w '.*rdc_undefined\.o' "${nv[@]}" -rdc=true "$src" -o w || r=1
   if (cd "$dir" && "${nv[@]}" -dc "$src" && "${nv[@]}" -lib rdc_undefined.o -o libundef.a) >"$dir/dc.log" 2>&1; then
      refused dc_link s rdc_undefined.o "${nv[@]}" rdc_undefined.o -o s || r=1
      refused dlink dl.o rdc_undefined.o "${nv[@]}" -dlink rdc_undefined.o -o dl.o || r=1
      refused dlink_library dl2.o libundef.a "${nv[@]}" -dlink libundef.a -o dl2.o || r=1
   else
      echo "FAIL driver.rdc_undefined: -dc or -lib failed: $(tail -n 1 "$dir/dc.log")"; r=1
   fi
   [ $r -eq 0 ] && echo "PASS driver.rdc_undefined (an undefined __device__ function refused at the device link of -rdc=true sources, of -dc objects, by -dlink of an object and of an archive)"
   return $r
}
if [ $undefined -eq 1 ]; then rdc_undefined || rc=1; fi

# Two units defining the same __device__ function and variable: the
# device link refuses them with nvlink's "Multiple definition" for each
# (and nothing for the inline, template and static functions both define),
# whether the units are linked at once (-rdc=true) or as -dc objects.
rdc_multiple() {
   local dir=$OUT/rdc_multiple src=$ROOT/tests/toolchain/rdc_twice r=0 how log
   local nv=("$TOOL" nvcc -O2)
   rm -rf "$dir" && mkdir -p "$dir"
   (cd "$dir" && "${nv[@]}" -dc "$src.cu" "$src.2.cu") >"$dir/dc.log" 2>&1 ||
      { echo "FAIL driver.rdc_multiple: -dc failed: $(tail -n 1 "$dir/dc.log")"; return 1; }
   for how in rdc_true dc_link; do
      log=$dir/$how.log
      if [ $how = rdc_true ]; then
         (cd "$dir" && "${nv[@]}" -rdc=true "$src.cu" "$src.2.cu" -o prog) >"$log" 2>&1
      else
         (cd "$dir" && "${nv[@]}" rdc_twice.o rdc_twice.2.o -o prog) >"$log" 2>&1
      fi
      if [ $? -eq 0 ] || [ -e "$dir/prog" ]; then
         echo "FAIL driver.rdc_multiple: $how: the link succeeded"; r=1; continue
      fi
      if [ "$(grep -c '^nvlink error   : Multiple definition of ' "$log")" != 2 ] ||
         ! grep -q "^nvlink error   : Multiple definition of '_Z5twicei' in '[^']*rdc_twice\.2\.o', first defined in '[^']*rdc_twice\.o'\$" "$log" ||
         ! grep -q "^nvlink error   : Multiple definition of 'twice_count' in '[^']*rdc_twice\.2\.o', first defined in '[^']*rdc_twice\.o'\$" "$log"; then
         echo "FAIL driver.rdc_multiple: $how: expected nvlink's two \"Multiple definition\" lines: $(head -c 500 "$log")"; r=1
      fi
   done
   [ $r -eq 0 ] && echo "PASS driver.rdc_multiple (a __device__ function and variable defined by two units refused at the device link, with nvlink's words; inline, template and static ones not)"
   return $r
}
if [ $undefined -eq 1 ]; then rdc_multiple || rc=1; fi

# Every bench program builds with the driver (each with its own
# `// nvcc-flags:` line), as bench/toolchain.sh's kernels do when it
# compares the two drivers: under make test-full (about half a minute on
# two cores) or when named.
bench_builds() {
   local dir f n bad=0 count=0
   dir=$(mktemp -d)
   for f in bench/*.cu; do
      n=$(basename "$f" .cu)
      count=$((count + 1))
      # shellcheck disable=SC2046
      if ! "$TOOL" nvcc -O2 -Ibench -Itests/cuda $(sed -n 's|^// nvcc-flags: *||p' "$f" | head -n 1) "$f" \
         -o "$dir/$n" >"$dir/$n.log" 2>&1; then
         echo "FAIL driver.bench_builds: $f: $(grep -m1 'error' "$dir/$n.log" || tail -n 1 "$dir/$n.log")"
         bad=1
      fi
   done
   [ $bad -eq 0 ] && echo "PASS driver.bench_builds (the $count programs of bench/)"
   rm -rf "$dir"
   return $bad
}
if [ $benches -eq 1 ]; then bench_builds || rc=1
elif [ $# -eq 0 ]; then echo "SKIP driver.bench_builds: make test-full builds the bench programs with the driver (bench/toolchain.sh runs its kernels both ways)"
fi

# The host side compiled while the device side is (the default: the fatbin
# through a FIFO) gives the object the two one after the other give
# (METALCUDA_NVCC_JOBS=1); the same -o, since the unit's id comes from it.
# A failing device side stops the host compile and reports only its own
# errors, once.
overlap_check() {
   local dir r=0
   dir=$(mktemp -d)
   "$TOOL" nvcc -O2 -Itests/cuda -c tests/cuda/saxpy.cu -o "$dir/k.o" 2>"$dir/a.log" && cp "$dir/k.o" "$dir/overlapped.o" &&
      METALCUDA_NVCC_JOBS=1 "$TOOL" nvcc -O2 -Itests/cuda -c tests/cuda/saxpy.cu -o "$dir/k.o" 2>"$dir/b.log" ||
      { echo "FAIL driver.overlap: a build failed: $(tail -n 1 "$dir"/*.log)"; rm -rf "$dir"; return 1; }
   cmp -s "$dir/k.o" "$dir/overlapped.o" || { echo "FAIL driver.overlap: the overlapped build's object differs from the serial one's"; r=1; }
   printf '__global__ void k(int *p) { p[0] = no_such_name; }\nint main() { return 0; }\n' >"$dir/bad.cu"
   if "$TOOL" nvcc -c "$dir/bad.cu" -o "$dir/bad.o" 2>"$dir/bad.log"; then
      echo "FAIL driver.overlap: a device-side error did not fail the build"; r=1
   elif [ "$(grep -c "error: use of undeclared identifier 'no_such_name'" "$dir/bad.log")" != 1 ] || [ -e "$dir/bad.o" ]; then
      echo "FAIL driver.overlap: a device-side error was not reported exactly once, or an object was written: $(cat "$dir/bad.log")"; r=1
   fi
   [ $r -eq 0 ] && echo "PASS driver.overlap (the same object as a serial build; a device-side error reported once)"
   rm -rf "$dir"
   return $r
}
overlap_check || rc=1

# No file of an NVIDIA installation is opened during a build (strace -f).
if command -v strace >/dev/null 2>&1; then
   log=$(mktemp) tmp=$(mktemp -d)
   # one trace file per process (-ff): the driver runs the host and device
   # compiles at once, and a single trace would split their calls into
   # "<unfinished ...>" and "resumed" lines
   strace -ff -qq -e trace=file -o "$tmp/trace" "$TOOL" nvcc -O2 -Itests/cuda tests/cuda/saxpy.cu -o "$tmp/saxpy" >/dev/null 2>&1
   st=$?
   cat "$tmp"/trace.* >"$log"
   # every path the build opened or looked at (not execve arguments), that
   # belongs to an NVIDIA installation: the toolkit's directories, its
   # headers where a system carries them in /usr/local/include, libdevice,
   # ptxas, fatbinary, nvlink
   bad=$(grep -E '^(openat|open|stat|newfstatat|lstat|access|faccessat2?|readlink|statx)\(' "$log" |
         grep -v ENOENT | grep -oE '"/[^"]*"' | tr -d '"' |
         grep -E '^/usr/local/cuda|^/opt/cuda|^/usr/local/include/(crt/|cuda|cooperative_groups|vector_types|driver_types|host_defines|sm_[0-9])|/nvvm/libdevice|/bin/(ptxas|fatbinary|nvlink)$' |
         sort -u | head -n 5)
   if [ $st -ne 0 ]; then echo "FAIL driver.no_nvidia_files: the build under strace failed (status $st)"; rc=1
   elif [ -n "$bad" ]; then echo "FAIL driver.no_nvidia_files: opened $(printf '%s ' $bad)"; rc=1
   else echo "PASS driver.no_nvidia_files (strace: $(grep -c open "$log") opens, none of NVIDIA's)"; fi
   rm -rf "$log" "$tmp"
else
   echo "SKIP driver.no_nvidia_files: strace not found"
fi
exit $rc
