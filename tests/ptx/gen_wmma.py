#!/usr/bin/env python3
"""gen_wmma.py — tests/ptx cases for the wmma shapes and types beyond the
f16 m16n16k16 of gen_mma.py: s8/u8 (m16n16k16, m32n8k16, m8n32k16, every
layout pair, with and without .satfinite), tf32 m16n16k8, f64 m8n8k4, s4/u4
m8n8k32, b1 m8n8k128 (.xor and .and .popc) and bf16 (the three k16 shapes,
every layout pair).

Each case is one warp: wmma.load A, B and C from the input (A at byte 0, B
at 1024, C at 2048), wmma.mma, wmma.store D to the output.  A load, the mma
and a store together do not depend on the fragment layout, so the output is
the product the H200 computes (tests/ptx/gen.sh writes the expect lines).
Integer data are random bytes; the .satfinite cases put C near the s32
limits so that sums saturate; tf32 and f64 data are random values of
moderate exponent.

  python3 tests/ptx/gen_wmma.py     writes tests/ptx/cases/wmma_*.ptx
"""
import os
import random
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")

# shape: (M, N, K); regs per fragment for (atype): a, b, c
INT8 = {(16, 16, 16): (2, 2, 8), (32, 8, 16): (4, 1, 8), (8, 32, 16): (1, 4, 8)}


def regs(p, n, kind="r"):
    return "{" + ", ".join("%%%s%s%d" % (kind, p, k) for k in range(n)) + "}"


def f2b(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def d2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def words_of_bytes(bs):
    bs = bs + bytes((4 - len(bs) % 4) % 4)
    return [int.from_bytes(bs[k:k + 4], "little") for k in range(0, len(bs), 4)]


def write_if_changed(path, text):
    """Keeps the expect lines of an unchanged case (they come from the GPU)."""
    if os.path.exists(path):
        old = open(path).read()
        if "\n".join(l for l in old.split("\n") if not l.startswith("// expect:")) == text:
            return
    open(path, "w").write(text)


def case(name, comment, inw, nout, decls, body):
    head = ["// hand-written (tests/ptx/gen_wmma.py)", "// block: 32"]
    for k in range(0, len(inw), 8):
        head.append("// in: u32 " + " ".join("0x%x" % w for w in inw[k:k + 8]))
    head.append("// out: u32 %d" % nout)
    head += ["// " + c for c in comment]
    text = "\n".join(head) + "\n" + "\n".join([
        ".version 8.0", ".target sm_80", ".address_size 64", "",
        ".visible .entry test(.param .u64 in, .param .u64 out)", "{",
        "   .reg .b64 %rd<8>;"] + decls + [
        "   ld.param.u64 %rd1, [in];",
        "   ld.param.u64 %rd2, [out];",
        "   cvta.to.global.u64 %rd3, %rd1;",
        "   cvta.to.global.u64 %rd4, %rd2;"] + body + ["   ret;", "}", ""])
    write_if_changed(os.path.join(OUT, name + ".ptx"), text)


def input_words(rng, a_bytes, b_bytes, c_words):
    inw = words_of_bytes(a_bytes)
    inw += [0] * (256 - len(inw))
    inw += words_of_bytes(b_bytes)
    inw += [0] * (512 - len(inw))
    inw += c_words
    inw += [0] * (768 - len(inw))
    return inw


def int8_cases(rng):
    for (M, N, K), (na, nb, nc) in INT8.items():
        for t in ("s8", "u8"):
            for la in ("row", "col"):
                for lb in ("row", "col"):
                    for sat in (False, True):
                        if sat and (la, lb) not in (("row", "col"), ("col", "col")):
                            continue
                        a = bytes(rng.getrandbits(8) for _ in range(M * K))
                        b = bytes(rng.getrandbits(8) for _ in range(K * N))
                        if sat:
                            c = [rng.choice([0x7fff0000 + rng.getrandbits(12), 0x80000000 + rng.getrandbits(12)])
                                 for _ in range(M * N)]
                        else:
                            c = [rng.getrandbits(32) for _ in range(M * N)]
                        lda = K if la == "row" else M
                        ldb = N if lb == "row" else K
                        shape = "m%dn%dk%d" % (M, N, K)
                        name = "wmma_s32_%s_%s_%s%s%s" % (t, shape, la, lb, "_satfinite" if sat else "")
                        body = [
                            "   wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd3], %d;" % (la, shape, t, regs("a", na), lda),
                            "   wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd3+1024], %d;" % (lb, shape, t, regs("b", nb), ldb),
                            "   wmma.load.c.sync.aligned.row.%s.global.s32 %s, [%%rd3+2048], %d;" % (shape, regs("c", nc), N),
                            "   wmma.mma.sync.aligned.%s.%s.%s.s32.%s.%s.s32%s %s, %s, %s, %s;" % (
                                la, lb, shape, t, t, ".satfinite" if sat else "", regs("e", nc), regs("a", na),
                                regs("b", nb), regs("c", nc)),
                            "   wmma.store.d.sync.aligned.row.%s.global.s32 [%%rd4], %s, %d;" % (shape, regs("e", nc), N),
                        ]
                        decls = ["   .reg .b32 %%ra<%d>;" % na, "   .reg .b32 %%rb<%d>;" % nb,
                                 "   .reg .b32 %%rc<%d>;" % nc, "   .reg .b32 %%re<%d>;" % nc]
                        comment = ["wmma %s %s, A %s-major, B %s-major, C and D row-major%s: D = A B + C" % (
                            shape, t, la, lb, ", .satfinite (C near the s32 limits)" if sat else "")]
                        case(name, comment, input_words(rng, a, b, c), M * N, decls, body)


def tf32_f64_cases(rng):
    # tf32 m16n16k8: a 4, b 4, c 8 (generic addresses)
    for fam, lo, hi in (("rand", -3, 3), ("wide", -30, 30)):
        a = [f2b(rng.uniform(1, 2) * 2.0 ** rng.randint(lo, hi) * rng.choice([1, -1])) for _ in range(16 * 8)]
        b = [f2b(rng.uniform(1, 2) * 2.0 ** rng.randint(lo, hi) * rng.choice([1, -1])) for _ in range(8 * 16)]
        c = [f2b(rng.uniform(-4, 4)) for _ in range(256)]
        inw = a + [0] * (256 - len(a)) + b + [0] * (256 - len(b)) + c
        body = [
            "   wmma.load.a.sync.aligned.row.m16n16k8.tf32 %s, [%%rd1], 8;" % regs("a", 4),
            "   wmma.load.b.sync.aligned.col.m16n16k8.tf32 %s, [%%rd1+1024], 8;" % regs("b", 4),
            "   wmma.load.c.sync.aligned.row.m16n16k8.f32 %s, [%%rd1+2048], 16;" % regs("c", 8, "f"),
            "   wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 %s, %s, %s, %s;" % (
                regs("d", 8, "f"), regs("a", 4), regs("b", 4), regs("c", 8, "f")),
            "   wmma.store.d.sync.aligned.row.m16n16k8.f32 [%rd2], " + regs("d", 8, "f") + ", 16;",
        ]
        decls = ["   .reg .b32 %ra<4>;", "   .reg .b32 %rb<4>;", "   .reg .f32 %fc<8>;", "   .reg .f32 %fd<8>;"]
        case("wmma_f32_tf32_m16n16k8_%s" % fam, ["wmma m16n16k8 tf32 (generic addresses), A row-major, B "
                                                 "column-major, f32 C and D: D = A B + C, %s data" % fam],
             inw, 256, decls, body)
    # f64 m8n8k4: a 1, b 1, c 2
    for la in ("row", "col"):
        for lb in ("row", "col"):
            a = [d2b(rng.uniform(-2, 2) * 2.0 ** rng.randint(-8, 8)) for _ in range(32)]
            b = [d2b(rng.uniform(-2, 2) * 2.0 ** rng.randint(-8, 8)) for _ in range(32)]
            c = [d2b(rng.uniform(-16, 16)) for _ in range(64)]
            split = lambda ws: [x for w in ws for x in (w & 0xffffffff, w >> 32)]
            inw = split(a) + [0] * 192 + split(b) + [0] * 192 + split(c) + [0] * 128
            body = [
                "   wmma.load.a.sync.aligned.%s.m8n8k4.f64 {%%fa0}, [%%rd1], %d;" % (la, 4 if la == "row" else 8),
                "   wmma.load.b.sync.aligned.%s.m8n8k4.f64 {%%fb0}, [%%rd1+1024], %d;" % (lb, 8 if lb == "row" else 4),
                "   wmma.load.c.sync.aligned.row.m8n8k4.f64 {%fc0, %fc1}, [%rd1+2048], 8;",
                "   wmma.mma.sync.aligned.%s.%s.m8n8k4.rn.f64.f64.f64.f64 {%%fd0, %%fd1}, {%%fa0}, {%%fb0}, "
                "{%%fc0, %%fc1};" % (la, lb),
                "   wmma.store.d.sync.aligned.row.m8n8k4.f64 [%rd2], {%fd0, %fd1}, 8;",
            ]
            decls = ["   .reg .f64 %fa<1>;", "   .reg .f64 %fb<1>;", "   .reg .f64 %fc<2>;", "   .reg .f64 %fd<2>;"]
            case("wmma_f64_m8n8k4_%s%s" % (la, lb), ["wmma m8n8k4 f64 .rn (generic addresses), A %s-major, B "
                                                     "%s-major: D = A B + C" % (la, lb)], inw, 128, decls, body)


def subbyte_cases(rng):
    for t, shape, K, ops in (("s4", "m8n8k32", 32, [""]), ("u4", "m8n8k32", 32, [""]),
                             ("b1", "m8n8k128", 128, [".xor.popc", ".and.popc"])):
        for op in ops:
            for sat in ((False, True) if t != "b1" else (False,)):
                nbits = 4 if t != "b1" else 1
                a = bytes(rng.getrandbits(8) for _ in range(8 * K * nbits // 8))
                b = bytes(rng.getrandbits(8) for _ in range(8 * K * nbits // 8))
                if sat:
                    c = [rng.choice([0x7fffff00 + rng.getrandbits(6), 0x80000000 + rng.getrandbits(6)]) for _ in range(64)]
                else:
                    c = [rng.getrandbits(32) for _ in range(64)]
                mma = "wmma.mma%s.sync.aligned.row.col.%s.s32.%s.%s.s32%s" % (op, shape, t, t, ".satfinite" if sat else "")
                body = [
                    "   wmma.load.a.sync.aligned.row.%s.global.%s {%%ra0}, [%%rd3], %d;" % (shape, t, K),
                    "   wmma.load.b.sync.aligned.col.%s.global.%s {%%rb0}, [%%rd3+1024], %d;" % (shape, t, K),
                    "   wmma.load.c.sync.aligned.row.%s.global.s32 {%%rc0, %%rc1}, [%%rd3+2048], 8;" % shape,
                    "   %s {%%re0, %%re1}, {%%ra0}, {%%rb0}, {%%rc0, %%rc1};" % mma,
                    "   wmma.store.d.sync.aligned.row.%s.global.s32 [%%rd4], {%%re0, %%re1}, 8;" % shape,
                ]
                decls = ["   .reg .b32 %ra<1>;", "   .reg .b32 %rb<1>;", "   .reg .b32 %rc<2>;", "   .reg .b32 %re<2>;"]
                name = "wmma_s32_%s_%s%s%s" % (t, shape, op.replace(".", "_"), "_satfinite" if sat else "")
                case(name, ["wmma %s %s%s, A row-major, B column-major%s: D = A B + C" % (
                    shape, t, op, ", .satfinite (C near the s32 limits)" if sat else "")],
                     input_words(rng, a, b, c), 64, decls, body)


# bf16 shape: regs per fragment a, b (PTX ISA 9.0 §9.7.14.4: no copies, as
# f16's have), c/d 8 f32
BF16 = {(16, 16, 16): (4, 4), (32, 8, 16): (8, 2), (8, 32, 16): (2, 8)}


def bf16_cases(rng):
    for (M, N, K), (na, nb) in BF16.items():
        for la in ("row", "col"):
            for lb in ("row", "col"):
                def bf(x):
                    return f2b(x) >> 16   # exact: the values have 8 significant bits
                def val():
                    return rng.randint(-255, 255) / 64.0 * 2.0 ** rng.randint(-4, 4)
                a = b"".join(struct.pack("<H", bf(val())) for _ in range(M * K))
                b = b"".join(struct.pack("<H", bf(val())) for _ in range(K * N))
                c = [f2b(rng.uniform(-8, 8)) for _ in range(M * N)]
                lda = K if la == "row" else M
                ldb = N if lb == "row" else K
                shape = "m%dn%dk%d" % (M, N, K)
                body = [
                    "   wmma.load.a.sync.aligned.%s.%s.global.bf16 %s, [%%rd3], %d;" % (la, shape, regs("a", na), lda),
                    "   wmma.load.b.sync.aligned.%s.%s.global.bf16 %s, [%%rd3+1024], %d;" % (lb, shape, regs("b", nb), ldb),
                    "   wmma.load.c.sync.aligned.row.%s.global.f32 %s, [%%rd3+2048], %d;" % (shape, regs("c", 8, "f"), N),
                    "   wmma.mma.sync.aligned.%s.%s.%s.f32.bf16.bf16.f32 %s, %s, %s, %s;" % (
                        la, lb, shape, regs("d", 8, "f"), regs("a", na), regs("b", nb), regs("c", 8, "f")),
                    "   wmma.store.d.sync.aligned.row.%s.global.f32 [%%rd4], %s, %d;" % (shape, regs("d", 8, "f"), N),
                ]
                decls = ["   .reg .b32 %%ra<%d>;" % na, "   .reg .b32 %%rb<%d>;" % nb,
                         "   .reg .f32 %fc<8>;", "   .reg .f32 %fd<8>;"]
                comment = ["wmma %s bf16 (%d and %d registers), A %s-major, B %s-major, f32 C and D row-major: "
                           "D = A B + C" % (shape, na, nb, la, lb)]
                case("wmma_f32_bf16_%s_%s%s" % (shape, la, lb), comment, input_words(rng, a, b, c), M * N, decls,
                     body)


def main():
    rng = random.Random(20261203)
    int8_cases(rng)
    tf32_f64_cases(rng)
    subbyte_cases(rng)
    bf16_cases(random.Random(20261206))   # its own sequence: the cases above keep their data


if __name__ == "__main__":
    main()
