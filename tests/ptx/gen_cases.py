#!/usr/bin/env python3
"""gen_cases.py — writes the tests/ptx/cases/*.ptx conformance cases.

Each case applies one PTX instruction form to every combination of a set of
edge values (one combination per thread) and stores the result.  This
script writes the PTX and the inputs only; the expected outputs are added
by running the cases on an NVIDIA GPU (tests/ptx/gen.sh), never computed
here or by metalcuda.  An existing case keeps its expected lines when the
PTX and inputs it would write are unchanged; otherwise they are dropped and
the case reports SKIP until regenerated on a GPU.

Usage: tests/ptx/gen_cases.py            (rewrites tests/ptx/cases/)
"""
import itertools
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]

U32_EDGES = [0, 1, 2, 7, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff9, 0x12345678]
U32_SMALL = [0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff9, 0x12345678]
F32_EDGES = [f32(0.0), 0x80000000, f32(1.0), f32(-1.0), f32(0.5), f32(3.0), f32(-2.5),
             0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x00000001, 0x807fffff,
             0x7f7fffff, 0x00800000, f32(1.0000001), f32(100.75), f32(-7.25e-3)]
F32_SMALL = [f32(0.0), 0x80000000, f32(1.0), f32(-2.5), 0x7f800000, 0xff800000, 0x7fc00000,
             0x00000001, 0x7f7fffff, f32(1.5e-3)]
F32_CONV = [f32(v) for v in (0.0, -0.0, 0.4, 0.5, 0.6, 1.5, 2.5, -0.5, -1.5, -2.5, 3.7, -3.7,
                              2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0,
                              4294967040.0, 4294967296.0, 1e20, -1e20, 65535.5, 255.5, -128.5, 127.5)] \
           + [0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x00000001, 0x807fffff]
F16_EDGES = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x4200, 0x7c00, 0xfc00, 0x7e00, 0x0001,
             0x03ff, 0x7bff, 0x0400, 0x3c01, 0xc900]

HEADER = """.version 9.0
.target TARGET
.address_size 64

.visible .entry test(.param .u64 in, .param .u64 out)
{
   .reg .pred %p<8>;
   .reg .b16 %h<8>;
   .reg .b32 %r<16>;
   .reg .f32 %f<8>;
   .reg .b64 %rd<16>;
   ld.param.u64 %rd1, [in];
   ld.param.u64 %rd2, [out];
   cvta.to.global.u64 %rd1, %rd1;
   cvta.to.global.u64 %rd2, %rd2;
   mov.u32 %r1, %tid.x;
"""

def case_text(comments, body, target="sm_75", decls=""):
    lines = "".join("// %s\n" % c for c in comments)
    head = HEADER.replace("TARGET", target)
    if decls:   # module-scope declarations go before the entry
        head = head.replace(".visible .entry", decls + "\n.visible .entry")
    return lines + head + body + "   ret;\n}\n"

ALL = []

def write_case(name, comments, body, target="sm_75", decls=""):
    ALL.append(name)
    path = os.path.join(CASES, name + ".ptx")
    new = case_text(comments, body, target, decls)
    if os.path.exists(path):
        old = open(path).read()
        kept = [l for l in old.splitlines(True) if l.startswith("// expect:")]
        rest = "".join(l for l in old.splitlines(True) if not l.startswith("// expect:"))
        if rest == new and kept:
            # same case: keep the GPU-produced expected lines after the header
            n = len(comments)
            head = "".join(new.splitlines(True)[:n])
            tail = "".join(new.splitlines(True)[n:])
            new = head + "".join(kept) + tail
    with open(path, "w") as f:
        f.write(new)

def in_lines(words, bits=32):
    out = []
    for k in range(0, len(words), 8):
        out.append("in: u%d " % bits + " ".join("0x%x" % w for w in words[k:k + 8]))
    return out

def load_operands(n, ty_bits=32):
    """Loads n consecutive 32-bit words for this thread into %r2.. ."""
    s = "   mul.wide.u32 %%rd3, %%r1, %d;\n   add.s64 %%rd4, %%rd1, %%rd3;\n" % (4 * n)
    for k in range(n):
        s += "   ld.global.u32 %%r%d, [%%rd4+%d];\n" % (2 + k, 4 * k)
    return s

STORE32 = ("   mul.wide.u32 %rd5, %r1, 4;\n   add.s64 %rd6, %rd2, %rd5;\n"
           "   st.global.u32 [%rd6], %r10;\n")

def op_case(name, instr, operands, nops, extra=None, target="sm_75", combos=None):
    """instr uses %r2..%r4 as sources and writes %r10."""
    if combos is None:
        combos = list(itertools.product(operands, repeat=nops))
    words = [w for c in combos for w in c]
    comments = ["block: %d" % len(combos)] + in_lines(words) + ["out: u32 %d" % len(combos)]
    if extra:
        comments = extra + comments
    body = load_operands(nops) + instr + STORE32
    write_case(name, comments, body, target)

def int_cases():
    for op in ["add.u32", "sub.u32", "add.sat.s32", "sub.sat.s32", "mul.lo.u32", "mul.hi.u32",
               "mul.hi.s32", "div.u32", "div.s32", "rem.u32", "rem.s32", "min.u32", "min.s32",
               "max.u32", "max.s32", "and.b32", "or.b32", "xor.b32", "shl.b32", "shr.u32", "shr.s32",
               "mul24.lo.u32", "mul24.lo.s32", "mul24.hi.u32", "mul24.hi.s32"]:
        op_case(op.replace(".", "_"), "   %s %%r10, %%r2, %%r3;\n" % op, U32_EDGES, 2)
    for op in ["abs.s32", "neg.s32", "not.b32", "cnot.b32", "popc.b32", "clz.b32", "brev.b32"]:
        op_case(op.replace(".", "_"), "   %s %%r10, %%r2;\n" % op, U32_EDGES, 1)
    for op in ["mad.lo.u32", "mad.hi.u32", "mad.hi.s32", "mad.hi.sat.s32", "sad.u32", "sad.s32",
               "mad24.lo.u32", "mad24.hi.s32"]:
        op_case(op.replace(".", "_"), "   %s %%r10, %%r2, %%r3, %%r4;\n" % op, U32_SMALL, 3)
    op_case("bfe_u32", "   bfe.u32 %r10, %r2, %r3, %r4;\n", [0, 1, 8, 31, 32, 0xf00ff00f, 0x80000001, 255], 3)
    op_case("bfe_s32", "   bfe.s32 %r10, %r2, %r3, %r4;\n", [0, 1, 8, 31, 32, 0xf00ff00f, 0x80000001, 255], 3)
    op_case("bfi_b32", "   mov.u32 %r5, 13;\n   bfi.b32 %r10, %r2, %r3, %r4, %r5;\n",
            [0, 1, 8, 31, 32, 0xf00ff00f, 0x80000001, 255], 3)
    # wide products: store both halves (out words 2 per thread)
    for op in ["mul.wide.u32", "mul.wide.s32"]:
        combos = list(itertools.product(U32_EDGES, repeat=2))
        words = [w for c in combos for w in c]
        body = load_operands(2) + ("   %s %%rd7, %%r2, %%r3;\n" % op) + \
            "   mul.wide.u32 %rd5, %r1, 8;\n   add.s64 %rd6, %rd2, %rd5;\n   st.global.u64 [%rd6], %rd7;\n"
        write_case(op.replace(".", "_"), ["block: %d" % len(combos)] + in_lines(words) +
                   ["out: u32 %d" % (2 * len(combos))], body)
    # setp: every comparison, result as 0/1
    for ty in ["u32", "s32", "b32"]:
        cmps = ["eq", "ne"] + (["lt", "le", "gt", "ge"] if ty != "b32" else []) + \
               (["lo", "ls", "hi", "hs"] if ty == "u32" else [])
        for cmp in cmps:
            instr = "   setp.%s.%s %%p1, %%r2, %%r3;\n   selp.u32 %%r10, 1, 0, %%p1;\n" % (cmp, ty)
            op_case("setp_%s_%s" % (cmp, ty), instr, U32_SMALL, 2)
    op_case("setp_pair_and", "   setp.ne.u32 %p3, %r2, 7;\n   setp.lt.and.s32 %p1|%p2, %r2, %r3, %p3;\n"
            "   selp.u32 %r10, 1, 0, %p1;\n   selp.u32 %r11, 2, 0, %p2;\n   or.b32 %r10, %r10, %r11;\n",
            U32_SMALL, 2)
    op_case("set_u32_s32", "   set.gt.u32.s32 %r10, %r2, %r3;\n", U32_SMALL, 2)
    op_case("selp_b32", "   setp.ne.u32 %p1, %r4, 0;\n   selp.b32 %r10, %r2, %r3, %p1;\n", [0, 1, 0xffffffff, 5], 3)

def float_cases():
    for op in ["add.f32", "sub.f32", "mul.f32", "add.rn.f32", "mul.rn.f32", "add.ftz.f32",
               "mul.ftz.f32", "add.sat.f32", "div.rn.f32", "min.f32", "max.f32", "min.ftz.f32",
               "copysign.f32"]:
        op_case(op.replace(".", "_"), "   %s %%r10, %%r2, %%r3;\n" % op, F32_EDGES, 2)
    for op in ["abs.f32", "neg.f32", "abs.ftz.f32", "sqrt.rn.f32", "rcp.rn.f32", "sqrt.rn.ftz.f32"]:
        op_case(op.replace(".", "_"), "   %s %%r10, %%r2;\n" % op, F32_EDGES, 1)
    op_case("fma_rn_f32", "   fma.rn.f32 %r10, %r2, %r3, %r4;\n", F32_SMALL, 3)
    op_case("fma_rn_sat_f32", "   fma.rn.sat.f32 %r10, %r2, %r3, %r4;\n", F32_SMALL, 3)
    op_case("mad_rn_f32", "   mad.rn.f32 %r10, %r2, %r3, %r4;\n", F32_SMALL, 3)
    for cmp in ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]:
        op_case("setp_%s_f32" % cmp, "   setp.%s.f32 %%p1, %%r2, %%r3;\n   selp.u32 %%r10, 1, 0, %%p1;\n" % cmp,
                F32_SMALL, 2)
    op_case("set_lt_f32_f32", "   set.lt.f32.f32 %r10, %r2, %r3;\n", F32_SMALL, 2)

def cvt_cases():
    for rnd in ["rni", "rzi", "rmi", "rpi"]:
        for dst in ["s32", "u32"]:
            op_case("cvt_%s_%s_f32" % (rnd, dst), "   cvt.%s.%s.f32 %%r10, %%r2;\n" % (rnd, dst), F32_CONV, 1)
        op_case("cvt_%s_f32_f32" % rnd, "   cvt.%s.f32.f32 %%r10, %%r2;\n" % rnd, F32_CONV, 1)
    op_case("cvt_rzi_s16_f32", "   cvt.rzi.s16.f32 %h1, %r2;\n   cvt.s32.s16 %r10, %h1;\n", F32_CONV, 1)
    op_case("cvt_rzi_u8_f32", "   cvt.rzi.u8.f32 %h1, %r2;\n   cvt.u32.u16 %r10, %h1;\n", F32_CONV, 1)
    for src in ["s32", "u32"]:
        op_case("cvt_rn_f32_%s" % src, "   cvt.rn.f32.%s %%r10, %%r2;\n" % src, U32_EDGES + [16777217, 0x7fffffc0], 1)
    for dst, src in [("s8", "s32"), ("u8", "s32"), ("s16", "u32"), ("u16", "s32")]:
        op_case("cvt_sat_%s_%s" % (dst, src),
                "   cvt.sat.%s.%s %%h1, %%r2;\n   cvt.u32.u16 %%r10, %%h1;\n" % (dst, src), U32_EDGES, 1)
    op_case("cvt_s64_s32", "   cvt.s64.s32 %rd7, %r2;\n   cvt.u32.u64 %r10, %rd7;\n"
            "   shr.u64 %rd8, %rd7, 32;\n   cvt.u32.u64 %r11, %rd8;\n   xor.b32 %r10, %r10, %r11;\n", U32_EDGES, 1)
    op_case("cvt_f32_f16", "   cvt.u16.u32 %h1, %r2;\n   cvt.f32.f16 %r10, %h1;\n", F16_EDGES, 1)
    op_case("cvt_rn_f16_f32", "   cvt.rn.f16.f32 %h1, %r2;\n   cvt.u32.u16 %r10, %h1;\n",
            F32_EDGES + [f32(65519.0), f32(65520.0), f32(2.0 ** -24), f32(2.0 ** -25), f32(3 * 2.0 ** -26)], 1)
    op_case("add_f16", "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n   add.f16 %h3, %h1, %h2;\n"
            "   cvt.u32.u16 %r10, %h3;\n", F16_EDGES, 2)
    op_case("mul_f16", "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n   mul.f16 %h3, %h1, %h2;\n"
            "   cvt.u32.u16 %r10, %h3;\n", F16_EDGES, 2)

def control_cases():
    # a loop with a data-dependent trip count and a guarded update
    body = load_operands(1) + """   mov.u32 %r10, 0;
   mov.u32 %r5, %r2;
   and.b32 %r5, %r5, 63;
LOOP:
   setp.eq.u32 %p1, %r5, 0;
   @%p1 bra DONE;
   and.b32 %r6, %r5, 1;
   setp.eq.u32 %p2, %r6, 1;
   @%p2 add.u32 %r10, %r10, %r5;
   @!%p2 xor.b32 %r10, %r10, 0x55;
   sub.u32 %r5, %r5, 1;
   bra.uni LOOP;
DONE:
""" + STORE32
    write_case("loop_guarded", ["block: 12"] + in_lines(U32_EDGES) + ["out: u32 12"], body)

def hand_written(path):
    """A case written by hand (its header has the line "// hand-written"):
    kept, and never rewritten here."""
    with open(path) as f:
        for line in f:
            if not line.startswith("//"):
                return False
            if line.startswith("// hand-written"):   # also "// hand-written (gen_mma.py ...)", "// hand-written: why"
                return True
    return False

def main():
    os.makedirs(CASES, exist_ok=True)
    int_cases()
    float_cases()
    cvt_cases()
    control_cases()
    import gen_more
    gen_more.generate(globals())
    for f in os.listdir(CASES):   # drop cases no longer generated
        if f.endswith(".ptx") and f[:-4] not in ALL and not hand_written(os.path.join(CASES, f)):
            os.remove(os.path.join(CASES, f))
    print("%d cases in %s" % (len(os.listdir(CASES)), CASES))

if __name__ == "__main__":
    main()
