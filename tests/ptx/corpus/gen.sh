#!/usr/bin/env bash
# tests/ptx/corpus/gen.sh [OUTDIR] — regenerates the PTX corpus that the
# front end's unit tests parse (tests/unit/test_ptx_parse.c, corpus_* tests).
#
# Every .cu here is compiled to PTX with nvcc for one or more targets (plus
# clang_kernels.cu with clang, when clang can target NVPTX).  Output goes to
# OUTDIR (default $MC_TEST_CORPUS, else build/ptx-corpus); nothing generated
# is committed.  Outputs newer than their source are kept, so a rerun costs
# nothing; jobs run in parallel.  Prints one line per file written and exits
# non-zero if a compile failed.
#
# NVCC, CLANG override the compilers.  MC_CORPUS_JOBS sets the parallelism.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${MC_TEST_CORPUS:-build/ptx-corpus}}
NVCC=${NVCC:-nvcc}
CLANG=${CLANG:-clang}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)

# source  target  output-name  extra flags
jobs=(
   "basics.cu sm_75 basics_sm75"
   "basics.cu sm_90 basics_sm90"
   "basics.cu sm_75 basics_debug_sm75 -G"
   "warp.cu sm_80 warp_lineinfo_sm80 -lineinfo"
   "math.cu sm_75 math_sm75"
   "math.cu sm_90 math_sm90"
   "half.cu sm_90 half_sm90"
   "tex.cu sm_75 tex_sm75"
   "coop.cu sm_90 coop_sm90"
   "asm.cu sm_80 asm_sm80"
   "mma.cu sm_80 mma_sm80"
   "mma.cu sm_90a mma_sm90a"
   "misc.cu sm_90 misc_sm90 -rdc=true"
   "ptxapi.cu sm_90a ptxapi_sm90a"
   "ptxapi.cu sm_100a ptxapi_sm100a"
   "cccl.cu sm_75 cccl_sm75"
   "cccl.cu sm_90 cccl_sm90"
)
# The PTX of every program in tests/cuda and examples must parse too.
for f in "$here"/../../cuda/*.cu "$here"/../../../examples/*.cu; do
   [ -e "$f" ] || continue
   rel=${f#"$here"/}
   # a program's own flags (relocatable device code: -rdc=true, which its
   # other units NAME.2.cu ... need as well)
   flags=$(sed -n 's|^// nvcc-flags: *||p' "$f" | head -n 1)
   case $f in *.[0-9].cu) flags=$(sed -n 's|^// nvcc-flags: *||p' "${f%.[0-9].cu}.cu" | head -n 1) ;; esac
   jobs+=("$rel sm_75 $(basename "$(dirname "$f")")_$(basename "$f" .cu)_sm75 $flags")
done

compile_one() {
   local here=$1 out=$2 nvcc=$3 src=$4 arch=$5 name=$6
   shift 6
   local dst="$out/$name.ptx"
   if [ "$dst" -nt "$here/$src" ] && [ "$dst" -nt "$here/gen.sh" ]; then
      return 0
   fi
   if "$nvcc" -ptx -arch="$arch" "$@" "$here/$src" -o "$dst.tmp" 2>"$dst.log"; then
      mv "$dst.tmp" "$dst" && rm -f "$dst.log" && echo "generated $dst"
   else
      echo "FAILED $src ($arch): see $dst.log" >&2
      rm -f "$dst.tmp"
      return 1
   fi
}
export -f compile_one

command -v "$NVCC" >/dev/null || { echo "gen.sh: $NVCC not found" >&2; exit 2; }
njobs=${MC_CORPUS_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
status=0
printf '%s\n' "${jobs[@]}" |
   xargs -P "$njobs" -L 1 bash -c 'compile_one "$0" "$@"' "$here" "$out" "$NVCC" || status=1

# clang's NVPTX back end, if present (optional: no failure when it is not).
if command -v "$CLANG" >/dev/null; then
   for g in "" "-g"; do
      dst="$out/clang_kernels${g:+_debug}.ptx"
      [ "$dst" -nt "$here/clang_kernels.cu" ] && [ "$dst" -nt "$here/gen.sh" ] && continue
      if "$CLANG" -x cuda --cuda-gpu-arch=sm_75 --cuda-device-only -nocudainc -nocudalib -O2 $g \
            -Xclang -target-feature -Xclang +ptx64 -S "$here/clang_kernels.cu" -o "$dst" \
            2>/dev/null; then
         echo "generated $dst"
      else
         rm -f "$dst"
      fi
   done
fi
exit $status
