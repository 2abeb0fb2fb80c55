#!/usr/bin/env bash
# tests/cuda12/toolkit.sh WHEELS OUT — assembles a CUDA 12 toolkit in OUT
# from the PyPI wheels nvidia-cuda-runtime-cu12 and nvidia-cuda-nvcc-cu12
# installed under WHEELS (pip install --target WHEELS ...: WHEELS/nvidia/
# cuda_runtime and WHEELS/nvidia/cuda_nvcc), and the system's nvcc.
#
# The wheels hold CUDA 12.9's headers, runtime (libcudart.so.12,
# libcudart_static.a), crt headers, libdevice and ptxas, but no compiler
# driver or front end (no nvcc, cicc, cudafe++, fatbinary).  So the front
# end is the system's (CUDA 13) nvcc, run from OUT/bin with its own
# nvcc.profile, which points every include, library and libdevice path at
# the wheels' CUDA 12.9 files: a program built with OUT/bin/nvcc sees only
# CUDA 12.9's headers and links CUDA 12.9's runtime, so it carries CUDA
# 12's ABI (the point of the layer).  Two pieces come from CUDA 13 because
# the front end needs them:
#   - crt/host_runtime.h: cudafe++ 13 writes launch stubs for 13's macros;
#     it is used with __NV_LEGACY_LAUNCH, where a stub calls
#     __cudaPopCallConfiguration and cudaLaunchKernel, the sequence CUDA
#     12's host_runtime.h gives;
#   - the PTX: cicc 13 writes PTX ISA 9.0, which CUDA 12.9's ptxas refuses,
#     so programs are built for compute_75 (PTX only, no ptxas), which the
#     driver compiles at load (metalcuda translates it).
# Prints OUT/bin/nvcc's path; exits non-zero (with the reason on stderr)
# when something is missing.
set -eu
wheels=$(cd "$1" 2>/dev/null && pwd) || { echo "toolkit.sh: no directory $1" >&2; exit 1; }
out=$2
rt=$wheels/nvidia/cuda_runtime nv=$wheels/nvidia/cuda_nvcc
for f in "$rt/include/cuda_runtime.h" "$rt/lib/libcudart.so.12" "$rt/lib/libcudart_static.a" \
         "$nv/include/crt/host_config.h" "$nv/nvvm/libdevice/libdevice.10.bc"; do
   [ -e "$f" ] || { echo "toolkit.sh: $f is missing (the wheels under $wheels are incomplete)" >&2; exit 1; }
done
host_nvcc=$(command -v "${NVCC:-nvcc}" 2>/dev/null) || { echo "toolkit.sh: no nvcc for the front end" >&2; exit 1; }
top=$(cd "$(dirname "$(readlink -f "$host_nvcc")")/.." && pwd)
for f in "$top/bin/cudafe++" "$top/bin/fatbinary" "$top/nvvm/bin/cicc" "$top/include/crt/host_runtime.h"; do
   [ -e "$f" ] || { echo "toolkit.sh: $f is missing (the front end of $host_nvcc)" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out/bin" "$out/nvvm/bin" "$out/nvvm/libdevice" "$out/lib64" "$out/include"
# nvcc reads nvcc.profile beside its own executable (resolving links): a copy
cp "$(readlink -f "$host_nvcc")" "$out/bin/nvcc"
# crt/link.stub and prelink.stub: the host side of the device-link step
for t in cudafe++ fatbinary nvlink bin2c crt; do
   [ -e "$top/bin/$t" ] && ln -s "$top/bin/$t" "$out/bin/$t"
done
ln -s "$top/nvvm/bin/cicc" "$out/nvvm/bin/cicc"
ln -s "$nv/nvvm/libdevice/libdevice.10.bc" "$out/nvvm/libdevice/libdevice.10.bc"
cp -r "$rt/include/." "$out/include/"
cp -r "$nv/include/." "$out/include/"
rm -f "$out/include/crt/host_runtime.h"
ln -s "$top/include/crt/host_runtime.h" "$out/include/crt/host_runtime.h"
for l in "$rt"/lib/lib*; do ln -s "$l" "$out/lib64/"; done
ln -s libcudart.so.12 "$out/lib64/libcudart.so"
# the driver API's link-time stub (libcuda.so.1 is one soname for CUDA 12
# and 13; the wheels have none): the front end's
mkdir -p "$out/lib64/stubs"
stub=$(find "$top/" -path '*/stubs/libcuda.so' -print -quit 2>/dev/null)
[ -n "$stub" ] && ln -s "$(readlink -f "$stub")" "$out/lib64/stubs/libcuda.so"
cat >"$out/bin/nvcc.profile" <<'EOF'
# CUDA 12.9's files from the wheels, nvcc 13's front end (tests/cuda12/toolkit.sh)
TOP              = $(_HERE_)/..
CICC_PATH        = $(TOP)/nvvm/bin
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(CICC_PATH):$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" "-D__NV_LEGACY_LAUNCH" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
echo "$out/bin/nvcc"
