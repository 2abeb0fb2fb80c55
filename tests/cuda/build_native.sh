#!/usr/bin/env bash
# tests/cuda/build_native.sh DIR — builds every tests/cuda/*.cu twice for a
# run on an NVIDIA GPU, the reference these programs are checked against:
#
#   DIR/shared/NAME   nvcc -cudart shared  (the binaries metalcuda runs)
#   DIR/static/NAME   nvcc's default static runtime
#   DIR/run.sh        runs all of them on NVIDIA's runtime and driver,
#                     prints PASS/FAIL lines and "N passed, N failed"
#   DIR/BUILD_INFO    nvcc version, flags and the source commit
#
#   tests/cuda/build_native.sh DIR NAME...  builds only those programs
#   (those not yet run natively, listed in NATIVE.md).
#
# DIR is self-contained: copy it to a GPU machine without nvcc if needed
# (the shared variants then need NVIDIA's libcudart.so.13 on the library
# path; run.sh adds the toolkit's lib64 when nvcc is there).  See NATIVE.md.
#
# A program's own `// nvcc-flags: ...` line (e.g. --default-stream
# per-thread, -rdc=true) is added to its command line, and its other
# translation units NAME.2.cu, NAME.3.cu ... (tests/cuda/run.sh) to its
# sources.
#
# Environment: NVCC (nvcc), NVCC_ARCH (sm_75: SASS for sm_75 plus its PTX,
# which newer GPUs such as the H200 JIT-compile: the same PTX metalcuda
# translates), NVCCFLAGS (extra flags).
set -u
if [ $# -lt 1 ]; then
   echo "usage: $0 DIR [NAME...]" >&2
   exit 2
fi
out=$(mkdir -p "$1" && cd "$1" && pwd) || exit 1
shift
cd "$(dirname "$0")/../.."
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_75}
if ! command -v "$NVCC" >/dev/null 2>&1; then
   echo "build_native.sh: nvcc not found (set NVCC or put it on PATH)" >&2
   exit 1
fi
mkdir -p "$out/shared" "$out/static"
flags=(-arch="$NVCC_ARCH" -O2 -Xcompiler -ffp-contract=off -Itests/cuda)
programs=()
for src in tests/cuda/*.cu; do
   case $src in *.[0-9].cu) ;; *) programs+=("$src") ;; esac
done
if [ $# -gt 0 ]; then
   programs=()
   for n in "$@"; do
      n=$(basename "$n" .cu)
      if [ ! -e "tests/cuda/$n.cu" ]; then
         echo "build_native.sh: no program tests/cuda/$n.cu" >&2
         exit 2
      fi
      programs+=("tests/cuda/$n.cu")
   done
fi
for src in "${programs[@]}"; do
   n=$(basename "$src" .cu)
   units=(tests/cuda/"$n".[0-9].cu)
   [ -e "${units[0]}" ] || units=()
   rm -f "$out/shared/$n" "$out/static/$n"
   for rt in shared static; do
      # shellcheck disable=SC2086
      "$NVCC" -cudart "$rt" "${flags[@]}" ${NVCCFLAGS:-} $(sed -n 's|^// nvcc-flags: *||p' "$src" | head -n 1) \
         "$src" "${units[@]}" -o "$out/$rt/$n" ||
         echo "build_native.sh: $rt/$n failed to build" >&2
   done &
   # a few files at a time: nvcc is slow and single-threaded
   [ "$(jobs -r | wc -l)" -ge "$(nproc 2>/dev/null || echo 2)" ] && wait -n
done
wait
rc=0
for src in "${programs[@]}"; do
   n=$(basename "$src" .cu)
   [ -x "$out/shared/$n" ] && [ -x "$out/static/$n" ] || rc=1
done
{
   echo "built $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -srm)"
   echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$([ -n "$(git status --porcelain -- tests/cuda 2>/dev/null)" ] && echo ' + uncommitted changes in tests/cuda')"
   "$NVCC" --version | tail -n 2
   echo "flags: -cudart shared|static ${flags[*]} ${NVCCFLAGS:-}"
} >"$out/BUILD_INFO"

cat >"$out/run.sh" <<'EOF'
#!/usr/bin/env bash
# run.sh — runs the natively built tests/cuda programs on NVIDIA's runtime:
# prints "PASS name" / "FAIL name: why" per program and variant, each
# program's own output indented, then "N passed, N failed".
set -u
cd "$(dirname "$0")"
if command -v nvcc >/dev/null 2>&1; then
   export LD_LIBRARY_PATH=$(dirname "$(command -v nvcc)")/../lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
cat BUILD_INFO 2>/dev/null | sed 's/^/# /'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# GPU: /'
pass=0 fail=0
for exe in shared/* static/*; do
   [ -x "$exe" ] || continue
   n=$(basename "$exe") name=$n.${exe%%/*}
   out=$(timeout 120 "./$exe" 2>&1)
   status=$?
   verdict=$(printf '%s\n' "$out" | grep -E "^(PASS|FAIL) $n( |:|$)" | tail -n 1)
   if [ $status -eq 0 ] && [[ $verdict == PASS* ]]; then
      echo "PASS $name${verdict#PASS $n}"
      pass=$((pass + 1))
   else
      echo "FAIL $name: status $status, ${verdict:-no PASS/FAIL line}"
      fail=$((fail + 1))
   fi
   printf '%s\n' "$out" | grep -vE "^(PASS|FAIL) |^$" | sed 's/^/    /'
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
EOF
chmod +x "$out/run.sh"
echo "built into $out; run $out/run.sh on the GPU machine"
exit $rc
