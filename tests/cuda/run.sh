#!/usr/bin/env bash
# tests/cuda/run.sh [--native] [--static] [--validate] [--valgrind] [--asan] [name...] — builds the CUDA test
# programs with nvcc and runs them through metalcuda.
#
# Every tests/cuda/NAME.cu is built with `nvcc -cudart shared` (plus the
# flags of its `// nvcc-flags:` line, if any), together with the other
# translation units of the same program, NAME.2.cu, NAME.3.cu ... (which
# are no programs of their own; relocatable device code, -rdc=true), into
# $BUILD/tests/cuda/NAME (rebuilt only when the source or check.h is newer)
# and run as `bin/metalcuda run $BUILD/tests/cuda/NAME` under a timeout.
# One line per program: "PASS name", "FAIL name: why" or "SKIP name: why"
# (see tests/run.sh); the program's other output follows, indented.  Exit
# status is non-zero if anything failed.  A program with a NAME.expected
# file beside it must also print exactly that on stdout (device printf
# output: the file is what the host's printf prints for the same calls).
#
#   --native   run the same binaries directly, on NVIDIA's runtime and driver
#              (a machine with an NVIDIA GPU; see NATIVE.md): our lib/ is kept
#              off the library path, the toolkit's lib64 is put on it
#   --static   build with nvcc's default static runtime instead (NAME.static):
#              NVIDIA's runtime inside the program, our libcuda under it
#   --nvidia-runtime
#              the -cudart shared builds on NVIDIA's own libcudart.so.13 (the
#              toolkit's, beside nvcc) over our libcuda.so.1 (NAME.nvrt):
#              the library path holds a directory with only our libcuda,
#              then the toolkit's lib64; SKIP if the toolkit has no
#              libcudart.so.13
#   --cuda12   the programs tests/cuda12/programs lists (or those named),
#              built against CUDA 12.9 with the toolkit tests/cuda12/run.sh
#              assembles from the wheels (MC_CUDA12_NVCC, default
#              $BUILD/cuda12/toolkit/bin/nvcc; compute_75 PTX; NAME.cuda12)
#              and run on metalcuda's libcudart.so.12; with
#              --nvidia-runtime on NVIDIA's libcudart.so.12 from that
#              toolkit over our libcuda (NAME.cuda12.nvrt).  SKIP without
#              the toolkit
#   --validate run under METALCUDA_VALIDATE=1 (reported as NAME.validate):
#              memory checking, and every kernel as fibers, including those
#              that otherwise run barrier to barrier in passes
#   --valgrind run the program under valgrind (memcheck; NAME.valgrind), with
#              our lib/ on the library path as `metalcuda run` puts it;
#              --trace-children=no: the host compiler the software device
#              spawns is not checked.  Exit status 99 (an error, or a
#              definite leak) fails the program, with valgrind's first report
#   --asan     run with the ASan+UBSan build of our libraries (make
#              asan-libs: build-asan/lib; NAME.asan); the nvcc-built program
#              is not instrumented, so libasan is preloaded.  Any report
#              (error, leak) fails the program, with its first lines
#   name...    only these programs (file names without .cu)
#
# Environment: BUILD (default build), NVCC (nvcc), NVCC_ARCH (sm_75),
# NVCCFLAGS (extra flags), MC_CUDA_TIMEOUT (seconds per program, default
# 120: the first run translates and compiles every kernel), METALCUDA_CACHE
# (default $BUILD/test-cache, as tests/run.sh), METALCUDA_BIN (the tool,
# default bin/metalcuda; its ../lib holds the libraries used).
#
# Without nvcc every program is a SKIP, never a PASS.
set -u
cd "$(dirname "$0")/../.."
. tests/tools/in_order.sh
ROOT=$PWD
BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
TIMEOUT=${MC_CUDA_TIMEOUT:-120}
TOOL=${METALCUDA_BIN:-bin/metalcuda}
export METALCUDA_CACHE=${METALCUDA_CACHE:-$ROOT/$BUILD/test-cache}

native=0 cudart=shared suffix= label= sanitizer= nvrt=0 cuda12=0
names=()
for a in "$@"; do
   case $a in
   --native) native=1 ;;
   --static) cudart=static suffix=.static ;;
   --cuda12) cuda12=1 suffix=.cuda12 ;;
   --nvidia-runtime) nvrt=1 label=.nvrt ;;
   --validate) label=.validate; export METALCUDA_VALIDATE=1 ;;
   --valgrind) label=.valgrind sanitizer=valgrind ;;
   --asan) label=.asan sanitizer=asan ;;
   -*) echo "usage: $0 [--native] [--static] [--cuda12] [--nvidia-runtime] [--validate] [--valgrind] [--asan] [name...]" >&2; exit 2 ;;
   *) names+=("$(basename "$a" .cu)") ;;
   esac
done
named=${#names[@]}
if [ $cuda12 -eq 1 ]; then
   # CUDA 12.9's headers and runtime (tests/cuda12/toolkit.sh); PTX only:
   # CUDA 12.9's ptxas refuses the PTX ISA 9.0 nvcc 13's front end writes
   NVCC=${MC_CUDA12_NVCC:-$BUILD/cuda12/toolkit/bin/nvcc}
   NVCC_ARCH=compute_75
   [ ${#names[@]} -eq 0 ] && mapfile -t names < <(sed -n 's/^\([a-z0-9_][a-z0-9_]*\).*/\1/p' tests/cuda12/programs)
fi
if [ ${#names[@]} -eq 0 ]; then
   for f in tests/cuda/*.cu; do
      case $f in *.[0-9].cu) continue ;; esac   # another unit of NAME.cu
      names+=("$(basename "$f" .cu)")
   done
fi
# A program marked `// heavy: why` in a line of its own runs in the plain
# layer only; its other builds and modes (static, NVIDIA's runtime,
# validation) run under MC_TEST_FULL (make test-full), or when named.
if [ "$named" -eq 0 ] && [ -n "$suffix$label" ] && [ -z "${MC_TEST_FULL:-}" ] && [ $native -eq 0 ]; then
   kept=()
   for n in "${names[@]}"; do
      if grep -q '^// heavy:' "tests/cuda/$n.cu" 2>/dev/null; then
         echo "SKIP $n$suffix$label: heavy (its '// heavy:' line); the cuda layer ran it, make test-full runs this build too"
      else
         kept+=("$n")
      fi
   done
   names=("${kept[@]}")
fi
OUTDIR=$BUILD/tests/cuda
OBJDIR=$OUTDIR/obj
[ $cuda12 -eq 1 ] && OBJDIR=$OUTDIR/obj.cuda12
mkdir -p "$OUTDIR" "$OBJDIR"

# ---- sanitizers ----
SANDIR=
case $sanitizer in
valgrind)
   if ! command -v valgrind >/dev/null 2>&1; then
      for n in "${names[@]}"; do echo "SKIP $n$suffix$label: valgrind not found"; done
      exit 0
   fi
   TIMEOUT=${MC_CUDA_TIMEOUT:-900}
   # The device arena is sized like a GPU (gigabytes); valgrind's leak
   # check reads all of it, which runs a small machine out of memory.
   export METALCUDA_ARENA_MB=${METALCUDA_ARENA_MB:-512}
   ;;
asan)
   TOOL=${METALCUDA_BIN:-build-asan/bin/metalcuda}
   if [ ! -x "$TOOL" ]; then
      for n in "${names[@]}"; do echo "FAIL $n$suffix$label: $TOOL is missing (make asan-libs builds it)"; done
      exit 1
   fi
   TIMEOUT=${MC_CUDA_TIMEOUT:-600}
   ;;
esac
if [ -n "$sanitizer" ]; then
   SANDIR=$(mktemp -d)
   trap 'rm -rf "$SANDIR"' EXIT
fi

# ---- NVIDIA's runtime over our driver ----
NVRT_PATH=
if [ $nvrt -eq 1 ]; then
   nvcc_dir=$(dirname "$(command -v "$NVCC" 2>/dev/null || echo /nonexistent/nvcc)")
   tk_lib=$(cd "$nvcc_dir/../lib64" 2>/dev/null && pwd)
   soname=libcudart.so.13
   [ $cuda12 -eq 1 ] && soname=libcudart.so.12
   if [ -z "$tk_lib" ] || [ ! -e "$tk_lib/$soname" ]; then
      for n in "${names[@]}"; do echo "SKIP $n$suffix$label: NVIDIA's $soname not found beside nvcc ($nvcc_dir/../lib64)"; done
      exit 0
   fi
   # only our libcuda.so.1 there: our libcudart must not be found first
   NVRT_PATH=$(bash tests/tools/driver_only_dir.sh "$BUILD" "$(dirname "$TOOL")/../lib"):$tk_lib
fi

# Runs the program (through metalcuda, or as the sanitizer needs it), its
# stdout and stderr into $2 and $3.
run_program() {
   local exe=$1 out=$2 err=$3 name=$4
   if [ $nvrt -eq 1 ]; then
      LD_LIBRARY_PATH="$NVRT_PATH${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout "$TIMEOUT" "$exe" >"$out" 2>"$err"
      return
   fi
   case $sanitizer in
   valgrind)
      # what `metalcuda run` does: our lib/ first on the library path
      LD_LIBRARY_PATH="$(dirname "$TOOL")/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
         timeout "$TIMEOUT" valgrind -q --error-exitcode=99 --trace-children=no --leak-check=full \
         --errors-for-leak-kinds=definite --show-leak-kinds=definite --log-file="$SANDIR/$name.log" \
         "$exe" >"$out" 2>"$err"
      ;;
   asan)
      # use_tls=0: see tests/run.sh's asan layer.  exitcode=0 and
      # log_path: a report is found in its file, not by the status, so that
      # the host compiler the software device spawns (which inherits the
      # preload) cannot fail a kernel's compilation with its own leaks.
      LD_PRELOAD="$("${CC:-cc}" -print-file-name=libasan.so)" \
         ASAN_OPTIONS="log_path=$SANDIR/$name:exitcode=0:detect_leaks=1" \
         UBSAN_OPTIONS="log_path=$SANDIR/$name:print_stacktrace=1" LSAN_OPTIONS=use_tls=0 \
         timeout "$TIMEOUT" "$TOOL" run "$exe" >"$out" 2>"$err"
      ;;
   *)
      timeout "$TIMEOUT" "$TOOL" run "$exe" >"$out" 2>"$err"
      ;;
   esac
}

# The sanitizer's first report about the program, if any ("" if clean).
# ASan/LSan/UBSan reports of processes that are not the program (the host
# compiler), or about the program's own code, are those whose stacks never
# name our sources or libraries.
sanitizer_report() {
   local name=$1 f
   case $sanitizer in
   valgrind)
      [ -s "$SANDIR/$name.log" ] && head -n 20 "$SANDIR/$name.log"
      ;;
   asan)
      for f in "$SANDIR/$name".*; do
         [ -f "$f" ] || continue
         # symbolised frames name our sources, unsymbolised ones our libraries
         if grep -qF -e "$ROOT/src/" -e libcuda -e build-asan "$f"; then
            head -n 24 "$f"
            return
         fi
      done
      ;;
   esac
}

if ! command -v "$NVCC" >/dev/null 2>&1; then
   why="nvcc not found (set NVCC or put it on PATH)"
   [ $cuda12 -eq 1 ] && why="no CUDA 12 toolkit at $NVCC (tests/cuda12/run.sh assembles it from the wheels: tests/cuda12/README.md)"
   for n in "${names[@]}"; do echo "SKIP $n$suffix$label: $why"; done
   exit 0
fi

if [ $native -eq 0 ] && [ ! -x "$TOOL" ]; then
   for n in "${names[@]}"; do echo "FAIL $n$suffix$label: $TOOL is missing (make all builds it)"; done
   exit 1
fi

# ---- build (in parallel, one nvcc per core) ----
# A program that needs its own nvcc flags says so in a line of its own:
#    // nvcc-flags: --default-stream per-thread
program_flags() { sed -n 's|^// nvcc-flags: *||p' "$1" | head -n 1; }

# -ffp-contract=off: the host references must not be fused into fmas by the
# host compiler (GCC fuses by default where the target has fma).
#
# Each unit is compiled once (nvcc -c) into $OUTDIR/obj (obj.cuda12 for the
# CUDA 12 toolkit) and the program linked from those objects: the runtime
# is chosen at link time only (-cudart), so the static build links the
# objects the shared build made instead of compiling everything again.
nvcc_flags() {
   # shellcheck disable=SC2086
   printf '%s\n' -arch="$NVCC_ARCH" -O2 -Xcompiler -ffp-contract=off -Itests/cuda ${NVCCFLAGS:-} $(program_flags "$1")
}
build_one() {
   local n=$1 src=tests/cuda/$1.cu exe=$OUTDIR/$1$suffix f fresh=1
   # the program's other units and its own header count as its sources
   local units=(tests/cuda/"$1".[0-9].cu)
   [ -e "${units[0]}" ] || units=()
   # (the CUDA 12 toolkit is assembled anew when its wheels change)
   local tk=
   [ $cuda12 -eq 1 ] && tk=$NVCC
   local deps=("$src" "${units[@]}" tests/cuda/check.h tests/cuda/drv_check.h tests/cuda/gate.h tests/cuda/tex_model.h tests/cuda/"$1".h tests/cuda/"$1"_expected.h $tk)
   for f in "${deps[@]}"; do
      [ -e "$f" ] && ! [ "$exe" -nt "$f" ] && fresh=0
   done
   if [ -x "$exe" ] && [ $fresh -eq 1 ]; then
      return 0
   fi
   rm -f "$exe" "$exe.log"
   local flags objs=() u o
   mapfile -t flags < <(nvcc_flags "$src")
   for u in "$src" "${units[@]}"; do
      o=$OBJDIR/$(basename "$u" .cu).o
      objs+=("$o")
      fresh=1
      for f in "${deps[@]}"; do
         [ -e "$f" ] && ! [ "$o" -nt "$f" ] && fresh=0
      done
      [ -f "$o" ] && [ $fresh -eq 1 ] && continue
      if ! "$NVCC" "${flags[@]}" -c "$u" -o "$o" >>"$exe.log" 2>&1; then
         rm -f "$o"
         return 1
      fi
   done
   if ! "$NVCC" -cudart "$cudart" "${flags[@]}" "${objs[@]}" -o "$exe" >>"$exe.log" 2>&1; then
      rm -f "$exe"
      return 1
   fi
   rm -f "$exe.log"
}

# After starting a background job: waits for one when $1 are running.
running=0
throttle() {
   running=$((running + 1))
   if [ $running -ge "$1" ]; then
      wait -n
      running=$((running - 1))
   fi
}

for n in "${names[@]}"; do
   if [ ! -f "tests/cuda/$n.cu" ]; then continue; fi
   build_one "$n" &
   throttle "$(nproc 2>/dev/null || echo 2)"
done
wait

# ---- run ----
if [ $native -eq 1 ]; then
   # NVIDIA's libcudart.so.13 from the toolkit that built the programs; our
   # lib/ must not be found first.
   nvcc_dir=$(dirname "$(command -v "$NVCC")")
   libpath=
   IFS=: read -r -a parts <<<"${LD_LIBRARY_PATH:-}"
   for p in "${parts[@]}"; do
      [ -n "$p" ] && [ "$(realpath -q "$p")" != "$(realpath -q "$ROOT/lib")" ] && libpath=$libpath:$p
   done
   export LD_LIBRARY_PATH=$nvcc_dir/../lib64$libpath
fi

# A program that needs longer than the default on the software device says
# so in a line of its own (MC_CUDA_TIMEOUT, when set, still rules):
#    // timeout: 600
program_timeout() { sed -n 's|^// timeout: *\([0-9][0-9]*\).*|\1|p' "$1" | head -n 1; }
BASE_TIMEOUT=$TIMEOUT

# One program: runs it and prints its verdict line and its other output;
# returns 1 if it failed.
run_case() {
   local n=$1 name=$1$suffix$label exe=$OUTDIR/$1$suffix own stdout_file status sanreport out stdout_diff verdict others
   TIMEOUT=$BASE_TIMEOUT
   own=$(program_timeout "tests/cuda/$n.cu" 2>/dev/null)
   if [ -z "${MC_CUDA_TIMEOUT:-}" ] && [ -n "$own" ] && [ "$own" -gt "$TIMEOUT" ]; then
      TIMEOUT=$own
   fi
   if [ ! -f "tests/cuda/$n.cu" ]; then
      echo "FAIL $name: no tests/cuda/$n.cu"
      return 1
   fi
   if [ ! -x "$exe" ]; then
      echo "FAIL $name: nvcc failed: $(grep -m1 -iE 'error' "$exe.log" 2>/dev/null || tail -n 1 "$exe.log" 2>/dev/null)"
      sed 's/^/    /' "$exe.log" 2>/dev/null | head -n 20
      return 1
   fi
   stdout_file=$(mktemp)
   if [ $native -eq 1 ]; then
      timeout "$TIMEOUT" "$exe" >"$stdout_file" 2>"$stdout_file.err"
   else
      run_program "$exe" "$stdout_file" "$stdout_file.err" "$n"
   fi
   status=$?
   sanreport=
   [ -n "$sanitizer" ] && sanreport=$(sanitizer_report "$n")
   out=$(cat "$stdout_file" "$stdout_file.err")
   stdout_diff=
   if [ -f "tests/cuda/$n.expected" ] && ! cmp -s "tests/cuda/$n.expected" "$stdout_file"; then
      stdout_diff=$(diff "tests/cuda/$n.expected" "$stdout_file" | head -n 12)
   fi
   rm -f "$stdout_file" "$stdout_file.err"
   # The program's own verdict is its line "PASS n" / "FAIL n: ..." (named
   # by the source file); it must agree with the exit status.
   verdict=$(printf '%s\n' "$out" | grep -E "^(PASS|FAIL|SKIP) $n( |:|$)" | tail -n 1)
   others=$(printf '%s\n' "$out" | grep -vE "^(PASS|FAIL|SKIP) |^$" | sed 's/^/    /')
   local rc=0
   if [ -n "$sanreport" ]; then
      echo "FAIL $name: $sanitizer reports (first lines; ${verdict:-no PASS/FAIL line}):"
      printf '%s\n' "$sanreport" | sed 's/^/    /'
      rc=1
   elif [ $status -eq 124 ]; then
      echo "FAIL $name: timed out after ${TIMEOUT}s"
      rc=1
   elif [ $status -ge 128 ]; then
      echo "FAIL $name: killed by signal $((status - 128))${verdict:+ after: $verdict}"
      rc=1
   elif [ -n "$stdout_diff" ] && [[ $verdict != FAIL* ]]; then
      echo "FAIL $name: stdout differs from tests/cuda/$n.expected (diff expected got):"
      printf '%s\n' "$stdout_diff" | sed 's/^/    /'
      rc=1
   elif [ $status -eq 0 ] && [[ $verdict == PASS* ]]; then
      echo "PASS $name${verdict#PASS $n}"
   elif [ $status -eq 0 ] && [[ $verdict == SKIP* ]]; then
      echo "SKIP $name${verdict#SKIP $n}"
   elif [[ $verdict == FAIL* ]]; then
      echo "FAIL $name${verdict#FAIL $n}"
      rc=1
   else
      echo "FAIL $name: exited with status $status and ${verdict:-no PASS/FAIL line}"
      rc=1
   fi
   [ -n "$others" ] && printf '%s\n' "$others"
   return $rc
}

# Programs run one per core (MC_CUDA_JOBS) and print in name order
# (tests/tools/in_order.sh); one marked `// serial: why` runs alone, and so
# do all of them under a sanitizer, validation or on the GPU.
jobs=${MC_CUDA_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ $native -eq 1 ] || [ -n "$sanitizer" ] || [ "$label" = .validate ] && jobs=1
rc=0
run_in_order run_case "$jobs" marked_serial "${names[@]}" || rc=1
exit $rc
