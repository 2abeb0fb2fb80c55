#!/usr/bin/env python3
"""gen_cuabi_list.py — write tests/tools/cuabi_list.h from src/api/cuabi.h.

The list names every constant, typedef, enumerator, struct and field that
src/api/cuabi.h declares, as X-macro lines.  tests/tools/cuabi_dump.c prints
each item (value, sizeof, alignment, offset) once compiled against cuabi.h and
once against NVIDIA's headers; tests/unit/test_cuabi.c compares the two.  The
list is generated so that it cannot drift from the header: the unit test also
checks that every enum and struct body in cuabi.h is fully covered by it.

Usage: tools/gen_cuabi_list.py [--check]   (run from anywhere; stdlib only)
  --check  exit 1 if the committed list differs from what would be written.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "src/api/cuabi.h")
OUTPUT = os.path.join(ROOT, "tests/tools/cuabi_list.h")

# Defines that are not values: the include guard and calling conventions.
SKIP_DEFINES = {"MC_API_CUABI_H", "CUDAAPI", "CUDARTAPI", "CUDA_CB", "CUDART_CB"}

TOKEN = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\S")
IDENT = re.compile(r"[A-Za-z_]\w*$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def split_top(tokens, sep):
    """Split a token list on `sep` outside of (), [] and {}."""
    parts, cur, depth = [], [], 0
    for t in tokens:
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def declarator_name(tokens):
    """The name a declarator declares: the last identifier before any array
    bound or bit-field width, looking past nested struct bodies."""
    depth, name = 0, None
    for t in tokens:
        if t in "{(":
            depth += 1
        elif t in "})":
            depth -= 1
        elif depth == 0 and t in ("[", ":"):
            break
        elif depth == 0 and IDENT.match(t) and t not in ("struct", "union", "enum", "const"):
            name = t
    return name


def member_names(body):
    names = []
    for decl in split_top(body, ";"):
        declarators = split_top(decl, ",")
        for i, d in enumerate(declarators):
            n = declarator_name(d) if i == 0 else next((t for t in d if IDENT.match(t)), None)
            if n:
                names.append(n)
    return names


def parse(text):
    items = {"const": [], "type": [], "enum": [], "struct": []}
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)(?:[ \t]+(\S.*))?$", text, re.M):
        if m.group(1) not in SKIP_DEFINES and m.group(2):
            items["const"].append(m.group(1))
    code = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    toks = TOKEN.findall(code)
    i = 0
    typedef_of = {}
    while i < len(toks):
        if toks[i] == "typedef" or toks[i] in ("enum", "struct", "union"):
            is_typedef = toks[i] == "typedef"
            j = i + 1 if is_typedef else i
            # find end of this declaration at depth 0
            depth, k = 0, j
            while k < len(toks) and not (toks[k] == ";" and depth == 0):
                if toks[k] == "{":
                    depth += 1
                elif toks[k] == "}":
                    depth -= 1
                k += 1
            decl = toks[j:k]
            if "{" in decl:
                kind, tag = decl[0], decl[1] if decl[1] != "{" else None
                lb = decl.index("{")
                depth, rb = 0, lb
                for rb in range(lb, len(decl)):
                    if decl[rb] == "{":
                        depth += 1
                    elif decl[rb] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                body = decl[lb + 1:rb]
                name = decl[rb + 1] if is_typedef and rb + 1 < len(decl) else None
                key = name or tag
                ctype = name or f"{kind} {tag}"
                if kind == "enum":
                    members = [p[0] for p in split_top(body, ",") if p]
                    items["enum"].append((key, tag or "", ctype, members))
                else:
                    items["struct"].append((key, tag or "", ctype, member_names(body)))
                if name:
                    items["type"].append(name)
                    typedef_of[name] = f"{kind} {tag}"
            elif is_typedef and "(" in decl:
                # a function pointer: typedef R (CB *name)(params); its
                # size is a pointer's, its identity the whole declaration
                name = decl[decl.index("*") + 1]
                items["type"].append(name)
                typedef_of[name] = " ".join(decl)
            elif is_typedef:
                name = decl[-1]
                inner = [t for t in decl[decl.index("(") + 1:] if t != "CUDA_CB"] if "(" in decl else []
                if inner[:1] == ["*"]:
                    name = inner[1]   # a function pointer: typedef R (CUDA_CB *name)(...)
                items["type"].append(name)
                typedef_of[name] = " ".join(decl[:-1])
            i = k + 1
        else:
            i += 1
    return items, typedef_of


def canonical(name, typedef_of):
    seen = set()
    t = typedef_of[name]
    while t in typedef_of and t not in seen:
        seen.add(t)
        t = typedef_of[t]
    return t


def generate():
    text = strip_comments(open(HEADER).read())
    items, typedef_of = parse(text)
    out = [
        "/*",
        " * cuabi_list.h — every item of src/api/cuabi.h, as X-macros.",
        " * GENERATED by tools/gen_cuabi_list.py: do not edit; rerun the script",
        " * after changing cuabi.h.",
        " *",
        " *   CUABI_CONST(name)                a #define: its value",
        " *   CUABI_TYPE(type)                 sizeof and _Alignof",
        " *   CUABI_SAME(a, b)                 whether a and b are one type",
        " *   CUABI_ENUM_TYPE(key, tag, type)  an enum; key: its typedef name, else",
        " *                                    its tag; tag may be empty",
        " *   CUABI_ENUM(key, name)            one enumerator's value",
        " *   CUABI_STRUCT_TYPE(key, tag, type) a struct or union",
        " *   CUABI_FIELD(key, type, member)   offset and size of one member",
        " */",
    ]
    for c in items["const"]:
        out.append(f"CUABI_CONST({c})")
    for t in items["type"]:
        out.append(f"CUABI_TYPE({t})")
    groups = {}
    for t in items["type"]:
        groups.setdefault(canonical(t, typedef_of), []).append(t)
    for base, names in groups.items():
        for other in names[1:]:
            out.append(f"CUABI_SAME({names[0]}, {other})")
    for key, tag, ctype, members in items["enum"]:
        out.append(f"CUABI_ENUM_TYPE({key}, {tag}, {ctype})")
        for m in members:
            out.append(f"CUABI_ENUM({key}, {m})")
    for key, tag, ctype, members in items["struct"]:
        out.append(f"CUABI_STRUCT_TYPE({key}, {tag}, {ctype})")
        for m in members:
            out.append(f"CUABI_FIELD({key}, {ctype}, {m})")
    return "\n".join(out) + "\n"


def main():
    text = generate()
    if "--check" in sys.argv[1:]:
        old = open(OUTPUT).read() if os.path.exists(OUTPUT) else ""
        if old != text:
            print(f"{OUTPUT} is stale: run tools/gen_cuabi_list.py", file=sys.stderr)
            return 1
        return 0
    with open(OUTPUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
