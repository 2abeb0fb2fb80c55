#!/usr/bin/env python3
"""gen_entries.py — the export lists of libcuda and libcudart, from NVIDIA's headers.

Writes two X-macro files, committed so that building needs no NVIDIA header:

  src/api/driver/entries.h   IMPL(name) / STUB(name), one line per symbol that
                             NVIDIA's libcuda.so.1 exports for cuda.h,
                             cudaProfiler.h and the GL/EGL/VDPAU interop headers
  src/api/runtime/entries.h  IMPL(name, R) / STUB(name, R) for libcudart.so.13:
                             cuda_runtime_api.h, cuda_profiler_api.h, the
                             interop headers, and the registration ABI that nvcc
                             emits into host code (crt/host_runtime.h)

The exported symbol is not the name a program writes: cuda.h renames
cuMemAlloc to cuMemAlloc_v2 and, with per-thread default streams, cuMemcpy to
cuMemcpy_ptds; the driver keeps exporting the old names for old binaries.
So each header is preprocessed three ways and the declared names are pooled:
plain (the current names), with CUDA_API_PER_THREAD_DEFAULT_STREAM (the
_ptds/_ptsz names), and with __CUDA_API_VERSION_INTERNAL (the legacy names
that cuda.h declares only for NVIDIA's own build).  Checked for CUDA 13.0:
the result equals the exports of the toolkit's stub libcuda.so (637 symbols)
plus the interop functions, and those of libcudart.so.13 (423 symbols); the
real driver 580.159.04 additionally exports cudbg* debugger symbols and three
undocumented functions (cuEGLApiInit, cuMemGetAttribute[_v2]) that no header
declares.

Regenerating keeps every IMPL mark already in the files, and keeps entries
that the headers no longer declare (old binaries may still import them).

R (runtime only) says what the function returns, which decides what a stub
may be:  E  cudaError_t: a stub returns cudaErrorNotSupported;
         V  nothing (void): a stub logs and returns;
         X  anything else: a stub cannot fake a value, so it must be IMPL.

Usage:
  tools/gen_entries.py [--cuda-include DIR] [--cc CC]   regenerate both files
  tools/gen_entries.py --check ...                      exit 1 if they are stale
  tools/gen_entries.py --mark-impl NAME... ...          also mark NAMEs IMPL
                                                        (regenerating also updates README.md's
                                                        API table: tools/gen_api_table.py)
  tools/gen_entries.py --table                          Markdown progress table
                                                        (needs no NVIDIA header)
Python 3 standard library only; needs a C preprocessor ($CC, default cc).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER_OUT = os.path.join(ROOT, "src/api/driver/entries.h")
RUNTIME_OUT = os.path.join(ROOT, "src/api/runtime/entries.h")
DRIVER_PROTOS = os.path.join(ROOT, "src/api/driver/protos.h")
RUNTIME_PROTOS = os.path.join(ROOT, "src/api/runtime/protos.h")

# Preprocessing modes, see the module comment.
MODES = [[], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"], ["-D__CUDA_API_VERSION_INTERNAL"]]
RT_MODES = [[], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"], ["-D__CUDART_API_VERSION_INTERNAL"]]

DRIVER_HEADERS = ["cuda.h", "cudaProfiler.h", "cudaGL.h", "cudaEGL.h", "cudaVDPAU.h"]
RUNTIME_HEADERS = ["cuda_runtime_api.h", "cuda_profiler_api.h", "cuda_gl_interop.h",
                   "cuda_egl_interop.h", "cuda_vdpau_interop.h"]
# The interop headers include system headers that declare GL/EGL/VDPAU types;
# preprocessing needs only that they exist.
FAKE_SYSTEM_HEADERS = ["GL/gl.h", "EGL/egl.h", "EGL/eglext.h", "vdpau/vdpau.h", "OpenGL/gl.h"]

# The registration ABI: declared in crt/host_runtime.h and crt/device_functions.h
# (C++ only, so not preprocessed here) or not declared at all.  Return kinds
# from those headers; the three undeclared ones from NVIDIA's libcudart.so.13:
# __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName,
# char *hostVar, size_t size) and __cudaRegisterUnifiedTable (5 pointer-sized
# arguments) return void; __cudaGetProcAddress is `return 0` on Linux.
# __cudaRegisterLinkedBinary_<module id> is not in the list: nvcc -rdc defines
# one per module inside the program itself (crt/link.stub), and it calls
# __cudaRegisterFatBinary.
REGISTRATION_PROTOS = {
    "__cudaRegisterFatBinary": "void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin)",
    "__cudaRegisterFatBinaryEnd": "void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle)",
    "__cudaUnregisterFatBinary": "void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle)",
    "__cudaRegisterFunction":
        "void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, "
        "char *deviceFun, const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid, "
        "dim3 *bDim, dim3 *gDim, int *wSize)",
    "__cudaRegisterVar":
        "void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, "
        "const char *deviceName, int ext, size_t size, int constant, int global)",
    "__cudaRegisterManagedVar":
        "void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, "
        "char *deviceAddress, const char *deviceName, int ext, size_t size, int constant, int global)",
    "__cudaRegisterTexture":
        "void CUDARTAPI __cudaRegisterTexture(void **fatCubinHandle, const struct textureReference *hostVar, "
        "const void **deviceAddress, const char *deviceName, int dim, int norm, int ext)",
    "__cudaRegisterSurface":
        "void CUDARTAPI __cudaRegisterSurface(void **fatCubinHandle, const struct surfaceReference *hostVar, "
        "const void **deviceAddress, const char *deviceName, int dim, int ext)",
    "__cudaRegisterHostVar":
        "void CUDARTAPI __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, "
        "char *hostVar, size_t size)",
    "__cudaRegisterUnifiedTable":
        "void CUDARTAPI __cudaRegisterUnifiedTable(void *a0, void *a1, void *a2, void *a3, void *a4)",
    "__cudaInitModule": "char CUDARTAPI __cudaInitModule(void **fatCubinHandle)",
    "__cudaPushCallConfiguration":
        "unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, "
        "struct CUstream_st *stream)",
    "__cudaPopCallConfiguration":
        "cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, "
        "size_t *sharedMem, void *stream)",
    "__cudaGetKernel": "cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)",
    "__cudaLaunchKernel":
        "cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, "
        "void **args, size_t sharedMem, cudaStream_t stream)",
    "__cudaLaunchKernel_ptsz":
        "cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, "
        "void **args, size_t sharedMem, cudaStream_t stream)",
    # Undeclared anywhere; NVIDIA's Linux build is `return 0`.
    "__cudaGetProcAddress": "void *CUDARTAPI __cudaGetProcAddress(void)",
}

REGISTRATION = [
    ("__cudaRegisterFatBinary", "X"),      # void **
    ("__cudaRegisterFatBinaryEnd", "V"),
    ("__cudaUnregisterFatBinary", "V"),
    ("__cudaRegisterFunction", "V"),
    ("__cudaRegisterVar", "V"),
    ("__cudaRegisterManagedVar", "V"),
    ("__cudaRegisterTexture", "V"),        # CUDA <= 12 only; libcudart.so.13 lacks it
    ("__cudaRegisterSurface", "V"),        # likewise
    ("__cudaRegisterHostVar", "V"),
    ("__cudaRegisterUnifiedTable", "V"),
    ("__cudaInitModule", "X"),             # char
    ("__cudaPushCallConfiguration", "X"),  # unsigned
    ("__cudaPopCallConfiguration", "E"),
    ("__cudaGetKernel", "E"),
    ("__cudaLaunchKernel", "E"),
    ("__cudaLaunchKernel_ptsz", "E"),
    ("__cudaGetProcAddress", "V"),
]

# Exported by NVIDIA's driver (580.159.04, CUDA 13.0) yet declared by no
# header; the static cudart could still ask for them through
# cuGetProcAddress.  Like every cu* function they return CUresult.  (The
# driver's cudbg* symbols belong to the debugger interface, not the API.)
DRIVER_UNDECLARED = ["cuEGLApiInit", "cuMemGetAttribute", "cuMemGetAttribute_v2"]

TOKEN = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\"(?:\\.|[^\"\\])*\"|\S")


def preprocess(cc, include, header, flags, fake_dir):
    src = f"#include <{header}>\n"
    cmd = [cc, "-E", "-P", "-x", "c", "-", f"-I{include}", f"-I{fake_dir}", *flags]
    r = subprocess.run(cmd, input=src, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gen_entries: preprocessing {header} {' '.join(flags)} failed:\n{r.stderr[:2000]}")
    return r.stdout


def declarations(text, prefix):
    """(name, (return-type tokens, parameter tokens)) of every function
    declared at file scope whose name starts with `prefix`, in order; static
    inline helpers and typedefs are not exports."""
    toks = TOKEN.findall(text)
    out = []
    depth, start = 0, 0
    for i, t in enumerate(toks):
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif depth == 0 and t == ";":
            start = i + 1
        elif (depth == 0 and t.startswith(prefix) and i + 1 < len(toks) and toks[i + 1] == "("
              and (i == 0 or toks[i - 1] != "(")):
            ret = toks[start:i]
            if {"static", "typedef", "inline", "__inline__"} & set(ret):
                continue
            clean, j = [], 0
            while j < len(ret):     # drop storage class, attributes, CUDA qualifiers
                x = ret[j]
                if x in ("__attribute__", "__declspec"):
                    j += 1
                    level = 0
                    while j < len(ret):
                        level += ret[j] == "("
                        level -= ret[j] == ")"
                        j += 1
                        if level == 0:
                            break
                    continue
                if x not in ("extern", "__host__", "__device__", "__cudart_builtin__"):
                    clean.append(x)
                j += 1
            depth_p, k = 0, i + 1
            while k < len(toks):
                depth_p += toks[k] == "("
                depth_p -= toks[k] == ")"
                if depth_p == 0:
                    break
                k += 1
            out.append((t, (clean, toks[i + 2:k])))
    return out


def base_name(n):
    return re.sub(r"_v\d+$", "", re.sub(r"_(ptds|ptsz)$", "", n))


def version_key(n):
    m = re.search(r"_v(\d+)", n)
    return (int(m.group(1)) if m else 1, n.endswith(("_ptds", "_ptsz")), n)


def collect(cc, include, headers, modes, prefix):
    """{header: [(name, (ret, params))]}, each family (a base name and its
    _vN/_ptds/_ptsz variants) together, in the order the header declares them."""
    with tempfile.TemporaryDirectory() as fake:
        for h in FAKE_SYSTEM_HEADERS:
            os.makedirs(os.path.dirname(os.path.join(fake, h)), exist_ok=True)
            open(os.path.join(fake, h), "w").close()
        seen = {}
        result = {}
        for h in headers:
            if not os.path.exists(os.path.join(include, h)):
                sys.exit(f"gen_entries: {include}/{h} not found")
            first_pos, rets = {}, {}
            for mi, m in enumerate(modes):
                for pos, (name, ret) in enumerate(declarations(preprocess(cc, include, h, m, fake), prefix)):
                    if name in seen and seen[name] != h:
                        continue            # declared by an earlier header (cuda.h via cudaGL.h)
                    seen[name] = h
                    b = base_name(name)
                    first_pos.setdefault(b, (mi, pos))
                    rets.setdefault(name, ret)
            names = sorted(rets, key=lambda n: (first_pos[base_name(n)], base_name(n), version_key(n)))
            result[h] = [(n, rets[n]) for n in names]
        return result


def ret_kind(decl):
    ret = decl[0]
    if ret == ["cudaError_t"]:
        return "E"
    if ret == ["void"]:
        return "V"
    return "X"


def read_marks(path):
    """name -> (mark, kind or None), in file order, from an existing entries.h."""
    marks = {}
    if os.path.exists(path):
        for m in re.finditer(r"^(IMPL|STUB)\((\w+)(?:,\s*(\w))?\)", open(path).read(), re.M):
            marks[m.group(2)] = (m.group(1), m.group(3))
    return marks


DRIVER_PROLOGUE = """\
/*
 * entries.h — every symbol of the CUDA Driver API that libcuda.so.1 exports.
 * GENERATED by tools/gen_entries.py from NVIDIA's CUDA {version} headers.
 * Edit only the marks (IMPL/STUB): the generator keeps them when it runs again.
 *
 *   IMPL(name)  implemented in src/api/driver/<family>.c
 *   STUB(name)  defined by stubs.c: logs "name is not implemented yet" once
 *               and returns CUDA_ERROR_NOT_SUPPORTED
 *
 * Names are the exported symbols, versioned as NVIDIA exports them: a
 * program calling cuMemAlloc gets cuMemAlloc_v2 (cuda.h renames it), one
 * built with per-thread default streams gets cuMemcpy_ptds, and one built
 * against CUDA 3.1 headers still imports cuMemAlloc.  The static cudart asks
 * cuGetProcAddress for "cuMemAlloc" at a CUDA version and gets one of them.
 *
 * Use: #define IMPL(name) ... / #define STUB(name) ... then #include this.
 */
"""

RUNTIME_PROLOGUE = """\
/*
 * entries.h — every symbol of the CUDA Runtime API that libcudart.so.13
 * exports, and the registration ABI nvcc emits calls to.
 * GENERATED by tools/gen_entries.py from NVIDIA's CUDA {version} headers.
 * Edit only the marks (IMPL/STUB): the generator keeps them when it runs again.
 *
 *   IMPL(name, R)  implemented in src/api/runtime/<family>.c
 *   STUB(name, R)  defined by stubs.c: logs "name is not implemented yet"
 *                  once, then
 *   R = E  returns cudaError_t: the stub returns cudaErrorNotSupported and
 *          sets the thread's last error;
 *   R = V  returns nothing: the stub only logs (registration calls made
 *          before main, with no error to report, and the undocumented
 *          __cudaGetProcAddress, which NVIDIA's Linux build makes return 0);
 *   R = X  returns another type (a pointer, a struct by value, a char): no
 *          stub can, so it must be IMPL.
 *
 * _ptds/_ptsz are the per-thread-default-stream variants a program compiled
 * with --default-stream per-thread imports instead of the plain names.
 *
 * Use: #define IMPL(name, R) ... / #define STUB(name, R) ... then #include.
 */
"""


def render(prologue, groups, marks, runtime):
    out = [prologue]
    written = set()
    for title, entries in groups:
        out.append(f"\n/* ---- {title} ---- */\n")
        for name, kind in entries:
            mark = marks.get(name, ("STUB", None))[0]
            if runtime and mark == "STUB" and kind == "X":
                sys.exit(f"gen_entries: {name} returns neither cudaError_t nor void: it must be IMPL")
            out.append(f"{mark}({name}, {kind})\n" if runtime else f"{mark}({name})\n")
            written.add(name)
    kept = [n for n in marks if n not in written]
    if kept:
        out.append("\n/* ---- not declared by the headers this was generated from; kept because\n"
                   " * programs built against older headers may import them ---- */\n")
        for n in kept:
            mark, kind = marks[n]
            out.append(f"{mark}({n}, {kind or 'E'})\n" if runtime else f"{mark}({n})\n")
    return "".join(out)


def cuda_version(include):
    m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", open(os.path.join(include, "cuda.h")).read())
    v = int(m.group(1)) if m else 0
    return f"{v // 1000}.{v % 1000 // 10}"


def generate(include, cc, extra_impl):
    version = cuda_version(include)
    dmarks = read_marks(DRIVER_OUT)
    rmarks = read_marks(RUNTIME_OUT)
    for n in extra_impl:
        if n.startswith("cu") and not n.startswith("cuda"):
            dmarks[n] = ("IMPL", None)
        else:
            rmarks[n] = ("IMPL", rmarks.get(n, (None, None))[1])

    drv = collect(cc, include, DRIVER_HEADERS, MODES, "cu")
    drv_groups = []
    for h in DRIVER_HEADERS:
        entries = [(n, None) for n, decl in drv[h] if not n.startswith("cuda")]
        drv_groups.append((h, entries))
    drv_groups.append(("exported by NVIDIA's driver, declared by no header",
                       [(n, None) for n in DRIVER_UNDECLARED]))
    rt = collect(cc, include, RUNTIME_HEADERS, RT_MODES, "cuda")
    rt_groups = []
    for h in RUNTIME_HEADERS:
        rt_groups.append((h, [(n, ret_kind(decl)) for n, decl in rt[h]]))
    rt_groups.append(("registration ABI (crt/host_runtime.h, crt/device_functions.h)", REGISTRATION))
    unknown = [n for n in extra_impl if n not in {e for _, es in drv_groups + rt_groups for e, _ in es}]
    if unknown:
        sys.exit(f"gen_entries: --mark-impl names no entry: {' '.join(unknown)}")
    dtext = render(DRIVER_PROLOGUE.format(version=version), drv_groups, dmarks, False)
    rtext = render(RUNTIME_PROLOGUE.format(version=version), rt_groups, rmarks, True)
    dprotos = {n: prototype("CUresult", n, decl[1]) for h in drv for n, decl in drv[h]}
    rprotos = {n: prototype(c_type(decl[0]), n, decl[1]) for h in rt for n, decl in rt[h]}
    rprotos.update(REGISTRATION_PROTOS)
    return {
        DRIVER_OUT: dtext,
        RUNTIME_OUT: rtext,
        DRIVER_PROTOS: render_protos("driver", "MC_API_DRIVER_PROTOS_H", dtext, dprotos),
        RUNTIME_PROTOS: render_protos("runtime", "MC_API_RUNTIME_PROTOS_H", rtext, rprotos),
    }


def c_text(tokens):
    """Tokens back to C, spaced the way we write it."""
    s = " ".join(tokens)
    s = re.sub(r"\s*\*\s*", " *", s)
    s = re.sub(r"\* \*", "**", s).replace("* *", "**")
    s = re.sub(r"\s+([,)\]])", r"\1", s)
    s = re.sub(r"([(\[])\s+", r"\1", s)
    return s.strip()


def c_type(ret):
    return c_text(ret)


def prototype(ret, name, params):
    api = "CUDAAPI" if name.startswith("cu") and not name.startswith("cuda") else "CUDARTAPI"
    sep = "" if ret.endswith("*") else " "
    return f"{ret}{sep}{api} {name}({c_text(params) or 'void'})"


PROTOS_PROLOGUE = """\
/*
 * protos.h — prototypes of the {lib} entry points marked IMPL in entries.h,
 * with NVIDIA's signatures.  The files that define them include it (through
 * api.h), so the compiler rejects a definition whose signature drifts from
 * the ABI, and MC_EXPORT here gives each definition default visibility.
 * GENERATED by tools/gen_entries.py: regenerate after marking an entry IMPL.
 * A type missing from cuabi.h shows up here as a compile error: add it there.
 */
#ifndef {guard}
#define {guard}

#include "../cuabi.h"
#include "../../util/util.h"

"""


def render_protos(lib, guard, entries_text, protos):
    out = [PROTOS_PROLOGUE.format(lib=lib, guard=guard)]
    for m in re.finditer(r"^IMPL\((\w+)", entries_text, re.M):
        n = m.group(1)
        if n not in protos:
            sys.exit(f"gen_entries: no declaration known for {n}")
        out.append(f"MC_EXPORT {protos[n]};\n")
    out.append("\n#endif\n")
    return "".join(out)


# ---- --table: the progress report ----

def table():
    """Markdown: per library, implemented and stub counts by header, then the
    lists.  Reads only the committed entries.h files."""
    lines = []
    for title, path in (("Runtime API (libcudart)", RUNTIME_OUT), ("Driver API (libcuda)", DRIVER_OUT)):
        sections, section = [], None
        impl, stub = [], []
        for line in open(path):
            m = re.match(r"/\* ---- (.*?)(?: ----)? \*/|/\* ---- (.*)", line)
            if m:
                section = [m.group(1) or m.group(2).strip(), 0, 0]
                sections.append(section)
            m = re.match(r"(IMPL|STUB)\((\w+)", line)
            if m and section:
                is_impl = m.group(1) == "IMPL"
                section[1 if is_impl else 2] += 1
                (impl if is_impl else stub).append(m.group(2))
        total = len(impl) + len(stub)
        lines.append(f"### {title}: {len(impl)} of {total} implemented\n")
        lines.append("| declared in | implemented | stub | exported |")
        lines.append("| --- | ---: | ---: | ---: |")
        for name, i, n in sections:
            lines.append(f"| {name} | {i} | {n} | {i + n} |")
        lines.append(f"| **all** | **{len(impl)}** | **{len(stub)}** | **{total}** |\n")
        lines.append("A stub logs its name once and fails (not-supported), or aborts under "
                     "METALCUDA_STRICT=1.\n")
        for label, names in (("Implemented", impl), ("Stubs", stub)):
            lines.append(f"<details><summary>{label} ({len(names)})</summary>\n")
            lines.append(", ".join(f"`{n}`" for n in names) + "\n")
            lines.append("</details>\n")
    return "\n".join(lines)


def default_include():
    for var in ("CUDA_INCLUDE",):
        if os.environ.get(var):
            return os.environ[var]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.path.join(os.environ[var], "include")
    return "/usr/local/cuda/include"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda-include", default=default_include())
    ap.add_argument("--cc", default=os.environ.get("CC") or "cc")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--mark-impl", nargs="+", default=[])
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    if a.table:
        print(table())
        return 0
    files = generate(a.cuda_include, a.cc, a.mark_impl)
    if a.check:
        stale = [p for p, t in files.items() if not os.path.exists(p) or open(p).read() != t]
        for p in stale:
            print(f"{os.path.relpath(p, ROOT)} is stale: run tools/gen_entries.py", file=sys.stderr)
        return 1 if stale else 0
    for path, text in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    # README.md's runtime API table follows the marks (the unit layer fails
    # while it is stale); a failure here only warns: the function bodies
    # may not be written yet.
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools/gen_api_table.py"), "--update"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"gen_entries: README.md's API table not updated: {r.stderr.strip()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
