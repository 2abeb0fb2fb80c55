#!/usr/bin/env python3
"""gen_api_table.py — the Runtime and Driver API status tables of README.md, from the code.

Every symbol libcudart exports (src/api/runtime/entries.h) and every symbol
libcuda exports (src/api/driver/entries.h) is counted once, in the family
of NVIDIA's Runtime or Driver API documentation its name belongs to, as

  implemented  IMPL, and its definition does something (or is made by a
               macro, where there is no body to read);
  refused      IMPL, but its definition only fails with the not-supported
               error: the first statement of its body (after RT_ENTER and
               the argument checks) is an unconditional RT_NOT_SUPPORTED,
               or the body carries a comment containing `REFUSED:` (a
               documented refusal that returns another error code, e.g.
               a feature CUDA itself lets a device lack); API_NOT_SUPPORTED
               and API_ENTER/API_CHECK for the driver;
  missing      STUB (stubs.c: logs once, returns cudaErrorNotSupported or
               CUDA_ERROR_NOT_SUPPORTED).

Exported variants (_v2, _ptds, _ptsz) are separate symbols and are counted
separately, as the linker sees them.

Usage:
  tools/gen_api_table.py            print both tables (Markdown)
  tools/gen_api_table.py --update   rewrite them in README.md, each between
                                    its BEGIN/END markers
  tools/gen_api_table.py --check    exit 1 (saying why) if a table of
                                    README.md is not what the code gives now
Python 3 standard library only; reads only committed files.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")

# Families as NVIDIA's Runtime API reference groups its modules; the first
# rule whose pattern matches the name (variant suffixes removed) wins.
RUNTIME_FAMILIES = [
    ("Registration ABI (nvcc-generated host code)", r"__cuda"),
    ("Error handling", r"cuda(GetLastError|PeekAtLastError|GetErrorName|GetErrorString)$"),
    ("Version management", r"cuda(Driver|Runtime)GetVersion$"),
    ("Graphics interop (OpenGL, EGL, VDPAU)",
     r"cuda(GL|EGL|VDPAU|Graphics|EventCreateFromEGLSync)"),
    ("Stream ordered memory allocator",
     r"cuda(MallocAsync|FreeAsync|MallocFromPoolAsync|MemPool|DeviceGetDefaultMemPool|DeviceGetMemPool"
     r"|DeviceSetMemPool|MemGetDefaultMemPool|MemGetMemPool|MemSetMemPool)"),
    ("Peer device memory access", r"cuda(DeviceCanAccessPeer|DeviceEnablePeerAccess|DeviceDisablePeerAccess)$"),
    ("Graph management",
     r"cuda(Graph|UserObject|DeviceGetGraphMemAttribute|DeviceSetGraphMemAttribute|DeviceGraphMemTrim)"),
    ("Device management",
     r"cuda(Device|ChooseDevice|GetDevice|SetDevice|SetValidDevices|InitDevice|Ipc)"),
    ("Stream management", r"cuda(Stream|ThreadExchangeStreamCaptureMode)"),
    ("Event management", r"cudaEvent"),
    ("External resource interop", r"cuda(ImportExternal|DestroyExternal|ExternalMemory|SignalExternal|WaitExternal)"),
    ("Occupancy", r"cudaOccupancy"),
    ("Library management", r"cuda(Library|KernelSetAttributeForDevice)"),
    ("Execution control", r"cuda(Launch|Func|GetFuncBySymbol|GetKernel|CtxResetPersistingL2Cache)"),
    ("Unified addressing", r"cudaPointerGetAttributes$"),
    ("Texture and surface objects",
     r"cuda(CreateTextureObject|DestroyTextureObject|GetTextureObject|CreateSurfaceObject|DestroySurfaceObject"
     r"|GetSurfaceObject|CreateChannelDesc|GetChannelDesc)"),
    ("Memory management",
     r"cuda(Malloc|Free|Memcpy|Memset|Mem|Host|Array|Mipmapped|GetMipmappedArrayLevel|GetSymbol)"),
    ("Driver entry point access", r"cudaGetDriverEntryPoint"),
    ("Interactions with the driver (internal)", r"cudaGetExportTable$"),
    ("Profiler control", r"cudaProfiler"),
    ("Error log management", r"cudaLogs"),
]


# The same for the Driver API reference's modules (and the undocumented
# exports of NVIDIA's driver).
DRIVER_FAMILIES = [
    ("Error handling", r"cuGetError(Name|String)$"),
    ("Initialization and version", r"cu(Init|DriverGetVersion)$"),
    ("Driver entry point access and export tables", r"cu(GetProcAddress|GetExportTable)"),
    ("Graphics interop (OpenGL, EGL, VDPAU)", r"cu(GL|EGL|VDPAU|Graphics|EventCreateFromEGLSync)"),
    ("Green contexts", r"cu(Green|CtxFromGreenCtx|DeviceGetDevResource|CtxGetDevResource|DevResource|DevSmResource)"),
    ("Primary context management", r"cuDevicePrimaryCtx"),
    ("Peer context memory access", r"cu(CtxEnablePeerAccess|CtxDisablePeerAccess|DeviceCanAccessPeer|DeviceGetP2P)"),
    ("Stream ordered memory allocator", r"cu(MemAllocAsync|MemFreeAsync|MemAllocFromPoolAsync|MemPool|DeviceGetMemPool"
     r"|DeviceSetMemPool|DeviceGetDefaultMemPool|MemGetDefaultMemPool|MemGetMemPool|MemSetMemPool)"),
    ("Graph management", r"cu(Graph|UserObject|DeviceGetGraphMemAttribute|DeviceSetGraphMemAttribute"
     r"|DeviceGraphMemTrim|StreamBeginCaptureToGraph)"),
    ("Device management", r"cuDevice"),
    ("Context management", r"cuCtx"),
    ("Module management", r"cu(Module|Link)"),
    ("Library management", r"cu(Library|Kernel)"),
    ("Virtual memory management", r"cuMem(AddressReserve|AddressFree|Create|Release|Map|Unmap|SetAccess|GetAccess"
     r"|ExportToShareableHandle|ImportFromShareableHandle|GetAllocationGranularity|GetAllocationPropertiesFromHandle"
     r"|RetainAllocationHandle|MapArrayAsync|GetHandleForAddressRange)"),
    ("Multicast objects", r"cuMulticast"),
    ("Unified addressing", r"cu(PointerGetAttribute|PointerSetAttribute|MemPrefetch|MemAdvise|MemRangeGetAttribute"
     r"|MemDiscard)"),
    ("Stream memory operations", r"cuStream(WaitValue|WriteValue|BatchMemOp)"),
    ("Stream management", r"cu(Stream|ThreadExchangeStreamCaptureMode)"),
    ("Event management", r"cuEvent"),
    ("External resource interop", r"cu(ImportExternal|DestroyExternal|ExternalMemory|SignalExternal|WaitExternal)"),
    ("Execution control", r"cu(Launch|Func|Param)"),
    ("Occupancy", r"cuOccupancy"),
    ("Texture and surface objects and references", r"cu(Tex|Surf)"),
    ("Tensor map objects", r"cuTensorMap"),
    ("Memory management", r"cu(Mem|Array|Mipmapped|Ipc|FlushGPUDirectRDMAWrites)"),
    ("Coredump attributes", r"cuCoredump"),
    ("Checkpointing", r"cuCheckpoint"),
    ("Error log management", r"cuLogs"),
    ("Profiler control", r"cuProfiler"),
]


class Api:
    """One exported API: its list of entries, the sources of its
    implementations, its families and its README section."""

    def __init__(self, key, title, entries, sources, skip, families, error, intro):
        self.key, self.title, self.entries, self.sources = key, title, entries, sources
        self.skip, self.families, self.error, self.intro = skip, families, error, intro
        self.begin = f"<!-- BEGIN {key} API table: generated by tools/gen_api_table.py --update; do not edit by hand -->"
        self.end = f"<!-- END {key} API table -->"


APIS = [
    # the CUDA 12/11 forms of libcudart.so.12/.11.0 (abi12.c, abi11.c) are
    # left out: the table is CUDA 13's ABI
    Api("runtime", "Runtime API (`libcudart`)", "src/api/runtime/entries.h", ["src/api/runtime/*.c"],
        ("abi12.c", "abi11.c"), RUNTIME_FAMILIES, "cudaErrorNotSupported", ""),
    Api("driver", "Driver API (`libcuda`)", "src/api/driver/entries.h",
        ["src/api/driver/*.c", "src/api/driver/darkapi/*.c"], (), DRIVER_FAMILIES, "CUDA_ERROR_NOT_SUPPORTED",
        "NVIDIA's runtime (static or shared) finds these through `cuGetProcAddress`; "),
]


def base_name(n):
    return re.sub(r"_v\d+$", "", re.sub(r"_(ptds|ptsz)$", "", n))


def family_of(name, families):
    b = base_name(name)
    for fam, pat in families:
        if re.match(pat, b):
            return fam
    return None


def read_entries(api):
    """[(name, 'IMPL' or 'STUB')] in entries.h order."""
    text = open(os.path.join(ROOT, api.entries)).read()
    return [(m.group(2), m.group(1)) for m in re.finditer(r"^(IMPL|STUB)\((\w+)", text, re.M)]


def strip_comments_and_strings(text):
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\])*'", "''", text)
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def definitions(api):
    """name -> raw body text (with comments) of every function defined in
    the API's sources."""
    bodies = {}
    paths = sorted(p for pat in api.sources for p in glob.glob(os.path.join(ROOT, pat)))
    for path in paths:
        if os.path.basename(path) in api.skip:
            continue
        text = open(path).read()
        for m in re.finditer(r"^[A-Za-z_][^;{}()]*?\b(\w+)\s*\(([^;{}]*?)\)\s*\{", text, re.M):
            name, depth, i = m.group(1), 1, m.end()
            while i < len(text) and depth:
                depth += text[i] == "{"
                depth -= text[i] == "}"
                i += 1
            bodies.setdefault(name, text[m.end():i - 1])
    return bodies


def top_statements(body):
    """The statements at the body's own level, each as text; a nested block
    or an if/else/switch/loop is one statement."""
    out, cur, depth, paren = [], [], 0, 0
    for ch in body:
        cur.append(ch)
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and paren == 0:
                out.append("".join(cur).strip())
                cur = []
        elif ch == ";" and depth == 0 and paren == 0:
            out.append("".join(cur).strip())
            cur = []
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def is_refused(body):
    if re.search(r"REFUSED:", body):
        return True
    for st in top_statements(strip_comments_and_strings(body)):
        if re.match(r"(RT|API)_NOT_SUPPORTED\s*\(", st):
            return True
        if re.match(r"(RT|API)_(ENTER|ENTER_VOID|CHECK)\s*\(", st):
            continue
        if re.match(r"(return|if|else|switch|for|while|do)\b|\{", st):
            return False
        # a declaration or an expression statement: keep looking
    return False


def classify(api):
    """[(family, {'implemented': [...], 'refused': [...], 'missing': [...]})]
    in the API's family order; exits if a name has no family."""
    bodies = definitions(api)
    groups = {fam: {"implemented": [], "refused": [], "missing": []} for fam, _ in api.families}
    errors = []
    for name, mark in read_entries(api):
        fam = family_of(name, api.families)
        if fam is None:
            errors.append(f"{name} belongs to no family: add a rule to the {api.key} families")
            continue
        if mark == "STUB":
            groups[fam]["missing"].append(name)
        elif name not in bodies:
            # defined through a macro (a _ptsz/_ptds twin, say): no body to
            # read, so it counts as implemented
            groups[fam]["implemented"].append(name)
        else:
            groups[fam]["refused" if is_refused(bodies[name]) else "implemented"].append(name)
    if errors:
        sys.exit("gen_api_table: " + "\ngen_api_table: ".join(errors))
    return [(fam, groups[fam]) for fam, _ in api.families]


def table(api):
    rows = classify(api)
    tot = {k: sum(len(g[k]) for _, g in rows) for k in ("implemented", "refused", "missing")}
    total = sum(tot.values())
    lines = [
        f"{api.title}: **{tot['implemented']} implemented, {tot['refused']} refused with an "
        f"error, {tot['missing']} missing**, of {total} exported symbols (each `_v2`/`_ptds`/`_ptsz` variant "
        f"counted). {api.intro}*Refused*: exists and always fails with `{api.error}` naming what is missing; "
        "*missing*: a stub that fails the same way and logs that it is not implemented "
        "(`src/api/README.md`).",
        "",
        "| family | implemented | refused | missing | total |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for fam, g in rows:
        n = [len(g[k]) for k in ("implemented", "refused", "missing")]
        lines.append(f"| {fam} | {n[0]} | {n[1]} | {n[2]} | {sum(n)} |")
    lines.append(f"| **all** | **{tot['implemented']}** | **{tot['refused']}** | **{tot['missing']}** | "
                 f"**{total}** |")
    lines.append("")
    for label, key in (("Implemented", "implemented"), ("Refused with an error", "refused")):
        names = [n for _, g in rows for n in g[key]]
        lines.append(f"<details><summary>{label} ({len(names)})</summary>")
        lines.append("")
        lines.append(", ".join(f"`{n}`" for n in names) if names else "(none)")
        lines.append("")
        lines.append("</details>")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def readme_parts(api, text):
    b, e = text.find(api.begin), text.find(api.end)
    if b < 0 or e < b:
        sys.exit(f"gen_api_table: README.md has no {api.begin!r} ... {api.end!r} section")
    return text[:b + len(api.begin)], text[b + len(api.begin):e], text[e:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = open(README).read()
    stale = []
    for api in APIS:
        want = "\n" + table(api)
        head, cur, tail = readme_parts(api, text)
        if args.update:
            text = head + want + tail
        elif args.check:
            if cur != want:
                stale.append(api.key)
        else:
            sys.stdout.write(table(api) + "\n")
    if args.update:
        with open(README, "w") as f:
            f.write(text)
    if stale:
        sys.exit(f"gen_api_table: README.md's {' and '.join(stale)} API table is stale: "
                 "run tools/gen_api_table.py --update")


if __name__ == "__main__":
    main()
