#!/usr/bin/env bash
# tools/drvtrace/build.sh OUTDIR — builds the tracing libcuda.so.1 and the
# probe into OUTDIR (and, with nvcc on PATH, rt12.c's kernel fatbin and
# rt12 against the CUDA runtime libraries named by CUDART_STATIC /
# CUDART_SHARED, if set).  x86-64 Linux, for a machine with NVIDIA's driver.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")"
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
python3 gen.py ../../src/api/driver/entries.h "$gen/drvtrace_gen.h"
cc -O1 -g -Wall -Wextra -fPIC -shared -I"$gen" -Wl,-soname,libcuda.so.1 -o "$out/libcuda.so.1" drvtrace.c -ldl -pthread
cc -O1 -g -Wall -Wextra -o "$out/probe" probe.c -ldl
if command -v nvcc >/dev/null 2>&1 && { [ -n "${CUDART_STATIC:-}" ] || [ -n "${CUDART_SHARED:-}" ]; }; then
   nvcc -fatbin -arch=compute_75 rtk.cu -o "$gen/rtk.fatbin"
   python3 - "$gen/rtk.fatbin" "$gen/rtk_fatbin.h" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
data += b'\0' * (-len(data) % 8)
words = struct.unpack('<%dQ' % (len(data) // 8), data)
with open(sys.argv[2], 'w') as f:
    f.write('static const unsigned long long rtk_fatbin[] = {\n')
    for i in range(0, len(words), 4):
        f.write('   ' + ', '.join('%#018xull' % w for w in words[i:i + 4]) + ',\n')
    f.write('};\n')
PY
   [ -n "${CUDART_STATIC:-}" ] && cc -O1 -Wall -Wextra -I"$gen" -o "$out/rt12.static" rt12.c "$CUDART_STATIC" -ldl -lpthread -lrt
   [ -n "${CUDART_SHARED:-}" ] && cc -O1 -Wall -Wextra -I"$gen" -o "$out/rt12.shared" rt12.c "$CUDART_SHARED" -Wl,-rpath,'$ORIGIN'
fi
echo "built in $out"
