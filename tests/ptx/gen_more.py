"""gen_more.py — the wider case families of tests/ptx (imported by gen_cases.py).

Families: 64-bit and 16-bit integers, carry chains, dot products and other
integer forms, directed rounding and .approx forms of f32, f16/f16x2/bf16,
conversions with every rounding mode, fp64 (edge values and seeded random
operands; the hard cases are gen_f64.py's), warp-level operations, 32-bit atomics, memory spaces and vector
accesses, special registers.  Forms metalcuda does not translate yet are
listed in tests/ptx/todo/*.txt (not in the cases, so the GPU outputs stay
valid when a gap closes).
"""
import itertools
import random
import struct

G = {}

def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]

def f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]

F64_EDGES = [f64(0.0), 0x8000000000000000, f64(1.0), f64(-1.0), f64(0.5), f64(3.0), f64(1.0 / 3.0),
             0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000001,
             0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
             f64(1.0000000000000002), f64(9007199254740992.0), f64(-2.5e-300), f64(1e300), f64(-7.25)]
F64_SMALL = [f64(0.0), 0x8000000000000000, f64(1.0), f64(-2.5), 0x7ff0000000000000, 0x7ff8000000000000,
             0x0000000000000001, 0x7fefffffffffffff, f64(1.5e-3), f64(1.0 / 3.0)]
U64_EDGES = [0, 1, 7, 63, 64, 65, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff,
             0xfffffffffffffff9, 0x123456789abcdef0, 0x00000000ffffffff]

def rnd_f64(rng, n, emin=-30, emax=30):
    out = []
    for _ in range(n):
        m = rng.getrandbits(52)
        e = rng.randint(emin, emax) + 1023
        s = rng.getrandbits(1)
        out.append((s << 63) | (e << 52) | m)
    return out

def rnd_f32(rng, n, emin=-20, emax=20):
    out = []
    for _ in range(n):
        m = rng.getrandbits(23)
        e = rng.randint(emin, emax) + 127
        out.append((rng.getrandbits(1) << 31) | (e << 23) | m)
    return out

# ---- templates ----

def load64(n):
    s = "   .reg .b64 %%x<8>;\n   mul.wide.u32 %%rd3, %%r1, %d;\n   add.s64 %%rd4, %%rd1, %%rd3;\n" % (8 * n)
    for k in range(n):
        s += "   ld.global.u64 %%x%d, [%%rd4+%d];\n" % (k, 8 * k)
    return s

STORE64 = ("   mul.wide.u32 %rd5, %r1, 8;\n   add.s64 %rd6, %rd2, %rd5;\n"
           "   st.global.u64 [%rd6], %x5;\n")
STORE2 = ("   mul.wide.u32 %rd5, %r1, 8;\n   add.s64 %rd6, %rd2, %rd5;\n"
          "   st.global.v2.u32 [%rd6], {%r10, %r11};\n")

def in64_lines(words):
    return ["in: u64 " + " ".join("0x%x" % w for w in words[k:k + 4]) for k in range(0, len(words), 4)]

def op64(name, instr, operands=None, nops=2, combos=None, out32=False, target="sm_75", extra=None):
    """64-bit sources %x0..%x2; result in %x5 (or %r10 with out32)."""
    if combos is None:
        combos = list(itertools.product(operands, repeat=nops))
    words = [w for c in combos for w in c]
    comments = ["block: %d" % len(combos)] + in64_lines(words) + \
               ["out: u%d %d" % (32 if out32 else 64, len(combos))]
    if extra:
        comments = extra + comments
    body = load64(nops) + instr + (G["STORE32"] if out32 else STORE64)
    G["write_case"](name, comments, body, target)

def op2(name, instr, operands, nops, target="sm_75"):
    """Two u32 results %r10, %r11 per thread."""
    combos = list(itertools.product(operands, repeat=nops))
    words = [w for c in combos for w in c]
    comments = ["block: %d" % len(combos)] + G["in_lines"](words) + ["out: u32 %d" % (2 * len(combos))]
    G["write_case"](name, comments, G["load_operands"](nops) + instr + STORE2, target)

# ---- families ----

def int64_cases():
    for op in ["add.u64", "sub.u64", "mul.lo.u64", "mul.hi.u64", "mul.hi.s64", "div.u64", "div.s64",
               "rem.u64", "rem.s64", "min.u64", "min.s64", "max.u64", "max.s64", "and.b64", "or.b64",
               "xor.b64"]:
        op64(op.replace(".", "_"), "   %s %%x5, %%x0, %%x1;\n" % op, U64_EDGES, 2)
    for op in ["abs.s64", "neg.s64", "not.b64", "brev.b64"]:
        op64(op.replace(".", "_"), "   %s %%x5, %%x0;\n" % op, U64_EDGES, 1)
    for op in ["popc.b64", "clz.b64", "bfind.u64", "bfind.s64", "bfind.shiftamt.u64"]:
        op64(op.replace(".", "_"), "   %s %%r10, %%x0;\n" % op, U64_EDGES, 1, out32=True)
    for op in ["shl.b64", "shr.u64", "shr.s64"]:
        op64(op.replace(".", "_"), "   cvt.u32.u64 %%r3, %%x1;\n   %s %%x5, %%x0, %%r3;\n" % op,
             combos=[(a, b) for a in U64_EDGES for b in [0, 1, 31, 32, 33, 63, 64, 65, 200]])
    op64("mad_lo_u64", "   mad.lo.u64 %x5, %x0, %x1, %x2;\n", U64_EDGES[:8], 3)
    op64("bfe_u64", "   cvt.u32.u64 %r3, %x1;\n   cvt.u32.u64 %r4, %x2;\n   bfe.u64 %x5, %x0, %r3, %r4;\n",
         combos=[(a, p, l) for a in U64_EDGES[:6] for p in [0, 7, 63, 64] for l in [0, 1, 8, 64, 65]])
    op64("bfe_s64", "   cvt.u32.u64 %r3, %x1;\n   cvt.u32.u64 %r4, %x2;\n   bfe.s64 %x5, %x0, %r3, %r4;\n",
         combos=[(a, p, l) for a in U64_EDGES[:6] for p in [0, 7, 63, 64] for l in [0, 1, 8, 64, 65]])
    for cmp, ty in [("lt", "s64"), ("lt", "u64"), ("ge", "s64"), ("hi", "u64"), ("eq", "b64"), ("ne", "b64")]:
        op64("setp_%s_%s" % (cmp, ty), "   setp.%s.%s %%p1, %%x0, %%x1;\n   selp.u32 %%r10, 1, 0, %%p1;\n" % (cmp, ty),
             U64_EDGES[:8], 2, out32=True)
    op64("mul_wide_u32_hi", "   cvt.u32.u64 %r2, %x0;\n   cvt.u32.u64 %r3, %x1;\n   mul.wide.u32 %x5, %r2, %r3;\n",
         U64_EDGES, 2)
    op64("cvt_pack_mov_b64", "   mov.b64 {%r2, %r3}, %x0;\n   mov.b64 %x5, {%r3, %r2};\n", U64_EDGES, 1)

def int16_cases():
    U16 = [0, 1, 7, 0x7fff, 0x8000, 0xffff, 0xfff9, 0x1234]
    pre = "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n"
    post = "   cvt.u32.u16 %r10, %h3;\n"
    for op in ["add.u16", "sub.u16", "mul.lo.u16", "mul.hi.u16", "mul.hi.s16", "div.u16", "div.s16",
               "rem.u16", "rem.s16", "min.s16", "max.u16", "and.b16", "or.b16", "xor.b16"]:
        G["op_case"](op.replace(".", "_"), pre + "   %s %%h3, %%h1, %%h2;\n" % op + post, U16, 2)
    G["op_case"]("mul_wide_s16", pre + "   mul.wide.s16 %r10, %h1, %h2;\n", U16, 2)
    for op in ["shl.b16", "shr.u16", "shr.s16"]:
        G["op_case"](op.replace(".", "_"), pre + "   %s %%h3, %%h1, %%r3;\n" % op + post,
                     None, 2, combos=[(a, b) for a in U16 for b in [0, 1, 15, 16, 17, 40]])
    for op in ["abs.s16", "neg.s16", "not.b16"]:
        G["op_case"](op.replace(".", "_"), pre + "   %s %%h3, %%h1;\n" % op + post, U16, 1)
    G["op_case"]("setp_lt_s16", pre + "   setp.lt.s16 %p1, %h1, %h2;\n   selp.u32 %r10, 1, 0, %p1;\n", U16, 2)

def more_int_cases():
    U = G["U32_EDGES"]
    S = G["U32_SMALL"]
    op2("add_cc_addc", "   add.cc.u32 %r10, %r2, %r3;\n   addc.u32 %r11, %r4, 0;\n", S, 3)
    op2("sub_cc_subc", "   sub.cc.u32 %r10, %r2, %r3;\n   subc.u32 %r11, %r4, 0;\n", S, 3)
    op2("mad_cc_madc", "   mad.lo.cc.u32 %r10, %r2, %r3, %r4;\n   madc.hi.u32 %r11, %r2, %r3, 0;\n", S, 3)
    op2("addc_cc_chain", "   add.cc.u32 %r10, %r2, %r3;\n   addc.cc.u32 %r11, %r2, %r4;\n"
        "   addc.u32 %r12, 0, 0;\n   add.u32 %r11, %r11, %r12;\n", S, 3)
    for op in ["dp4a.u32.u32", "dp4a.s32.s32", "dp4a.u32.s32", "dp2a.lo.u32.u32", "dp2a.hi.s32.s32"]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2, %%r3, %%r4;\n" % op, S, 3)
    for mode in ["u32", "s32"]:
        G["op_case"]("szext_%s" % mode, "   szext.wrap.%s %%r10, %%r2, %%r3;\n   szext.clamp.%s %%r11, %%r2, %%r3;\n"
                     "   xor.b32 %%r10, %%r10, %%r11;\n   add.u32 %%r10, %%r10, %%r11;\n" % (mode, mode), None, 2,
                     combos=[(a, b) for a in [0x8000807f, 0x7fffffff, 0x12345678] for b in [0, 1, 7, 8, 31, 32, 33]])
    G["op_case"]("slct_u32_s32", "   slct.u32.s32 %r10, %r2, %r3, %r4;\n", S, 3)
    G["op_case"]("slct_f32_f32", "   slct.f32.f32 %r10, %r2, %r3, %r4;\n", None, 3,
                 combos=[(1, 2, c) for c in G["F32_EDGES"]])
    for lut in [0x96, 0xe8, 0x80, 0xfe, 0x1e]:
        G["op_case"]("lop3_%02x" % lut, "   lop3.b32 %%r10, %%r2, %%r3, %%r4, 0x%x;\n" % lut, S, 3)
    for mode in ["clamp", "wrap"]:
        G["op_case"]("bmsk_%s" % mode, "   bmsk.%s.b32 %%r10, %%r2, %%r3;\n" % mode, None, 2,
                     combos=[(a, b) for a in [0, 1, 8, 31, 32, 33] for b in [0, 1, 8, 31, 32, 40]])
    for mode in ["", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"]:
        sels = [0x3210, 0x7654, 0x0123, 0x89ab, 0xcdef, 0x4567, 0x1f2e, 0xf0f1, 0, 1, 2, 3]
        G["op_case"]("prmt_b32%s" % mode.replace(".", "_"), "   prmt.b32%s %%r10, %%r2, %%r3, %%r4;\n" % mode, None, 3,
                     combos=[(0x80ff1234, 0x11223344, c) for c in sels] + [(0x12345678, 0x9abcdef0, c) for c in sels])
    for op in ["bfind.u32", "bfind.s32", "bfind.shiftamt.u32", "bfind.shiftamt.s32"]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2;\n" % op, U, 1)
    for d in ["l", "r"]:
        for m in ["wrap", "clamp"]:
            G["op_case"]("shf_%s_%s" % (d, m), "   shf.%s.%s.b32 %%r10, %%r2, %%r3, %%r4;\n" % (d, m), None, 3,
                         combos=[(0x12345678, 0x9abcdef0, n) for n in [0, 1, 4, 31, 32, 33, 63, 64, 0xffffffff]])
    G["op_case"]("popc_clz_brev_mix", "   popc.b32 %r5, %r2;\n   clz.b32 %r6, %r2;\n   brev.b32 %r7, %r2;\n"
                 "   add.u32 %r10, %r5, %r6;\n   xor.b32 %r10, %r10, %r7;\n", U, 1)
    G["op_case"]("cnot_pred_logic", "   setp.ne.u32 %p1, %r2, 0;\n   setp.ne.u32 %p2, %r3, 0;\n"
                 "   xor.pred %p3, %p1, %p2;\n   and.pred %p4, %p3, %p1;\n   not.pred %p5, %p4;\n"
                 "   or.pred %p6, %p5, %p2;\n   selp.u32 %r10, 1, 0, %p6;\n", S, 2)

def f32_rounding_cases():
    E = G["F32_EDGES"]
    rng = random.Random(32)
    R = rnd_f32(rng, 40)
    for rnd in ["rz", "rm", "rp"]:
        for op in ["add", "sub", "mul", "div"]:
            G["op_case"]("%s_%s_f32" % (op, rnd), "   %s.%s.f32 %%r10, %%r2, %%r3;\n" % (op, rnd), E, 2)
            G["op_case"]("%s_%s_f32_random" % (op, rnd), "   %s.%s.f32 %%r10, %%r2, %%r3;\n" % (op, rnd), None, 2, combos=list(zip(R, R[7:] + R[:7])))
        G["op_case"]("fma_%s_f32" % rnd, "   fma.%s.f32 %%r10, %%r2, %%r3, %%r4;\n" % rnd, G["F32_SMALL"], 3)
        G["op_case"]("sqrt_%s_f32" % rnd, "   sqrt.%s.f32 %%r10, %%r2;\n" % rnd, E + R, 1)
        G["op_case"]("rcp_%s_f32" % rnd, "   rcp.%s.f32 %%r10, %%r2;\n" % rnd, E + R, 1)
        G["op_case"]("add_%s_ftz_f32" % rnd, "   add.%s.ftz.f32 %%r10, %%r2, %%r3;\n" % rnd, E, 2)
        for src in ["s32", "u32", "s64", "u64"]:
            if src.endswith("64"):
                op64("cvt_%s_f32_%s" % (rnd, src), "   cvt.%s.f32.%s %%r10, %%x0;\n" % (rnd, src), U64_EDGES + 
                     [0x0000000001000001, 0x7fffffffffffffff], 1, out32=True)
            else:
                G["op_case"]("cvt_%s_f32_%s" % (rnd, src), "   cvt.%s.f32.%s %%r10, %%r2;\n" % (rnd, src),
                             G["U32_EDGES"] + [16777217, 0x7fffffc1, 0xffffff7f], 1)
        G["op_case"]("cvt_%s_f16_f32" % rnd, "   cvt.%s.f16.f32 %%h1, %%r2;\n   cvt.u32.u16 %%r10, %%h1;\n" % rnd,
                     E + R, 1)
    # random operands, round to nearest (bit exact) and divisions
    for op in ["add.rn", "mul.rn", "div.rn", "sub.rn"]:
        G["op_case"]("%s_f32_random" % op.replace(".", "_"), "   %s.f32 %%r10, %%r2, %%r3;\n" % op, None, 2,
                     combos=list(zip(R, R[3:] + R[:3])))
    G["op_case"]("fma_rn_f32_random", "   fma.rn.f32 %r10, %r2, %r3, %r4;\n", None, 3,
                 combos=list(zip(R, R[3:] + R[:3], R[11:] + R[:11])))
    G["op_case"]("sqrt_rn_f32_random", "   sqrt.rn.f32 %r10, %r2;\n", [r & 0x7fffffff for r in R], 1)
    G["op_case"]("div_full_f32", "   div.full.f32 %r10, %r2, %r3;\n", None, 2, extra=["ulp: 2"],
                 combos=list(zip(R, R[5:] + R[:5])))
    G["op_case"]("div_approx_f32", "   div.approx.f32 %r10, %r2, %r3;\n", None, 2, extra=["ulp: 2"],
                 combos=list(zip(R, R[5:] + R[:5])))
    # ranges where the ISA bounds the error
    pos = [f32(x) for x in (0.001, 0.1, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 10.0, 100.0, 12345.0, 1e-30, 1e30)]
    angles = [f32(x) for x in (-3.0, -1.5, -0.5, -0.1, 0.0, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 3.14159)]
    G["op_case"]("rcp_approx_f32", "   rcp.approx.f32 %r10, %r2;\n", pos + [f32(-2.0)], 1)
    G["op_case"]("sqrt_approx_f32", "   sqrt.approx.f32 %r10, %r2;\n", pos, 1, extra=["ulp: 2"])
    G["op_case"]("rsqrt_approx_f32", "   rsqrt.approx.f32 %r10, %r2;\n", pos, 1)
    G["op_case"]("ex2_approx_f32", "   ex2.approx.f32 %r10, %r2;\n",
                 [f32(x) for x in (-10.0, -1.5, -0.5, 0.0, 0.25, 1.0, 3.3, 10.0, 20.5)], 1)
    # sin/cos/lg2/ex2/rcp/rsqrt .approx: bit exact, the SFU's model (prelude/sfu.metal)
    G["op_case"]("lg2_approx_f32", "   lg2.approx.f32 %r10, %r2;\n", pos, 1)
    G["op_case"]("sin_approx_f32", "   sin.approx.f32 %r10, %r2;\n", angles, 1)
    G["op_case"]("cos_approx_f32", "   cos.approx.f32 %r10, %r2;\n", angles, 1)
    G["op_case"]("tanh_approx_f32", "   tanh.approx.f32 %r10, %r2;\n", angles, 1, extra=["abs: 1e-3"])
    G["op_case"]("ex2_approx_ftz_f32", "   ex2.approx.ftz.f32 %r10, %r2;\n",
                 [f32(x) for x in (-130.0, -126.5, -100.0, 0.0, 1.0)], 1)
    sfu_cases()
    for op in ["min.NaN.f32", "max.NaN.f32", "min.xorsign.abs.f32", "max.xorsign.abs.f32"]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2, %%r3;\n" % op, G["F32_SMALL"], 2, target="sm_86")
    for cls in ["finite", "infinite", "number", "notanumber", "normal", "subnormal"]:
        G["op_case"]("testp_%s_f32" % cls, "   testp.%s.f32 %%p1, %%r2;\n   selp.u32 %%r10, 1, 0, %%p1;\n" % cls, E, 1)

def sfu_cases():
    """sin/cos/lg2/ex2.approx{.ftz}.f32 over seeded random operands and the
    edges of the SFU's model (prelude/sfu.metal): quadrant boundaries, the
    25-bit revolution grid, NaN/inf, subnormals, ex2's -126 split and its
    negative integers, lg2's powers of two and subnormal inputs."""
    rng = random.Random(20261204)
    spec = [0, 0x80000000, 1, 0x80000001, 0x7fffff, 0x807fffff, 0x800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
            0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345]
    unif = lambda lo, hi, n: [f32(rng.uniform(lo, hi)) for _ in range(n)]
    pi = 3.14159265358979
    angles = spec + unif(-7.0, 7.0, 96) + rnd_f32(rng, 48, -30, 30) + unif(-1e6, 1e6, 16) + \
        [f32(k * pi / 4) for k in range(-8, 9)] + [f32(x) for x in (1.8e-7, 1.9e-7, -1.87e-7, 3.7e-7, 1e-8, 5e7, 1e9, 1e20)]
    angles += [w ^ 1 for w in angles[15:47]]   # the last mantissa bit: the FMUL.RZ before MUFU
    for op in ["sin.approx", "cos.approx", "sin.approx.ftz", "cos.approx.ftz"]:
        G["op_case"](op.replace(".", "_") + "_f32_sweep", "   %s.f32 %%r10, %%r2;\n" % op, angles, 1)
    ex = spec + unif(-150.0, 130.0, 96) + unif(-1.0, 1.0, 32) + rnd_f32(rng, 40, -30, 7) + \
        [f32(x) for x in (-1.0, -2.0, -3.0, -0.5, -125.0, -126.0, -127.0, -149.0, -150.0, -151.0, -125.99999,
                          -126.00001, -126.5, -149.5, 127.0, 127.99999, 128.0, 1e-8, -1e-8, 1.1920929e-7)]
    for op in ["ex2.approx", "ex2.approx.ftz"]:
        G["op_case"](op.replace(".", "_") + "_f32_sweep", "   %s.f32 %%r10, %%r2;\n" % op, ex, 1)
    lg = spec + [rng.getrandbits(31) for _ in range(120)] + unif(0.5, 2.0, 48) + \
        [1 + rng.getrandbits(23) for _ in range(16)] + \
        [f32(x) for x in (1.0, 2.0, 4.0, 0.5, 0.25, 2.0 ** -126, 2.0 ** -127, 2.0 ** 127, 0.99999994, 1.0000001,
                          -1.0, 3.0, 10.0)]
    for op in ["lg2.approx", "lg2.approx.ftz"]:
        G["op_case"](op.replace(".", "_") + "_f32_sweep", "   %s.f32 %%r10, %%r2;\n" % op, lg, 1)
    rc = spec + [rng.getrandbits(32) for _ in range(120)] + unif(0.5, 4.0, 48) + \
        [f32(x) for x in (1.0, 2.0, 4.0, 0.5, 0.25, -1.0, 2.0 ** 126, 2.0 ** 127, 1.5 * 2.0 ** 126, 2.0 ** -126,
                          2.0 ** -127, 2.0 ** -128, 2.0 ** -149, 3.0, 0.99999994, 1.0000001, 1.9999999)]
    for op in ["rcp.approx", "rcp.approx.ftz", "rsqrt.approx", "rsqrt.approx.ftz"]:
        G["op_case"](op.replace(".", "_") + "_f32_sweep", "   %s.f32 %%r10, %%r2;\n" % op, rc, 1)

def f16_cases():
    H = G["F16_EDGES"]
    pre = "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n   cvt.u16.u32 %h3, %r4;\n"
    post = "   cvt.u32.u16 %r10, %h4;\n"
    for op in ["sub.f16", "min.f16", "max.f16", "add.ftz.f16", "mul.sat.f16"]:
        G["op_case"](op.replace(".", "_"), pre + "   %s %%h4, %%h1, %%h2;\n" % op + post, H, 2, target="sm_80")
    G["op_case"]("fma_rn_f16", pre + "   fma.rn.f16 %h4, %h1, %h2, %h3;\n" + post, H[:10], 3)
    for op in ["neg.f16", "abs.f16"]:
        G["op_case"](op.replace(".", "_"), pre + "   %s %%h4, %%h1;\n" % op + post, H, 1, target="sm_80")
    G["op_case"]("setp_lt_f16", pre + "   setp.lt.f16 %p1, %h1, %h2;\n   selp.u32 %r10, 1, 0, %p1;\n", H, 2)
    pairs = [(a | (b << 16)) for a, b in zip(H, H[3:] + H[:3])]
    for op in ["add.f16x2", "mul.f16x2", "sub.f16x2", "min.f16x2", "max.f16x2"]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2, %%r3;\n" % op, pairs, 2, target="sm_80")
    G["op_case"]("fma_rn_f16x2", "   fma.rn.f16x2 %r10, %r2, %r3, %r4;\n", pairs[:8], 3)
    G["op_case"]("cvt_rn_f16x2_f32", "   cvt.rn.f16x2.f32 %r10, %r2, %r3;\n", G["F32_SMALL"], 2, target="sm_80")
    B = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x7f7f, 0x4049, 0x3c00, 0xc2c8]
    pre_b = "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n"
    for op in ["add.bf16", "mul.bf16", "sub.bf16"]:
        G["op_case"](op.replace(".", "_"), pre_b + "   %s %%h4, %%h1, %%h2;\n" % op + post, B, 2, target="sm_90")
    G["op_case"]("cvt_rn_bf16_f32", "   cvt.rn.bf16.f32 %h4, %r2;\n" + post, G["F32_EDGES"], 1, target="sm_80")
    G["op_case"]("cvt_f32_bf16", pre_b + "   cvt.f32.bf16 %r10, %h1;\n", B, 1, target="sm_90")
    G["op_case"]("cvt_rn_bf16x2_f32", "   cvt.rn.bf16x2.f32 %r10, %r2, %r3;\n", G["F32_SMALL"], 2, target="sm_80")
    G["op_case"]("cvt_rzi_s32_f16", pre_b + "   cvt.rzi.s32.f16 %r10, %h1;\n", G["F16_EDGES"], 1)
    G["op_case"]("cvt_rn_f16_s32", "   cvt.rn.f16.s32 %h4, %r2;\n" + post,
                 [0, 1, 0xffffffff, 65504, 65519, 65520, 100000, 0x80000000, 2049, 2051], 1)

def f32_bits_to_float(w):
    return struct.unpack("<f", struct.pack("<I", w))[0]

def float_more_cases():
    """Forms of the issue 3 float work the first cases left out: results at
    the underflow and overflow thresholds with .ftz (is a result that rounds
    up to 2^-126 flushed?), cancelling fma in every mode, ties that only
    the exact addend breaks (fma.rn.f16/bf16 must round once), integer to
    f16 and bf16 conversions, .rz into bf16/f16x2/bf16x2, the bf16x2 and
    remaining packed forms, min/max modifiers on 16-bit lanes."""
    E = G["F32_EDGES"]
    S = G["F32_SMALL"]
    rng = random.Random(33)
    R = rnd_f32(rng, 48)
    tiny = [(0x20000000, 0x1f7fffff), (0x1f7fffff, 0x20000000), (0x00800000, 0x3f7fffff), (0x80800000, 0x3f7fffff),
            (0x00800001, 0x3f7fffff), (0x00800000, 0x3f000000), (0x00ffffff, 0x3f000001), (0x20000001, 0x1f7ffffe),
            (0x1f800001, 0x1fffffff), (0x0c000000, 0x33ffffff), (0x7f7fffff, 0x3f800001), (0xff7fffff, 0x3f800001),
            (0x7f000000, 0x40000000), (0x3f800001, 0x3f800001), (0x00800000, 0xbf7fffff), (0x1a000000, 0x25000001)]
    dtiny = [(a, 0x40000000) for a in (0x00ffffff, 0x00800001, 0x00800000, 0x80ffffff, 0x01000001, 0x00000003)] + \
            [(0x3f800000, b) for b in (0x7f000000, 0x7e800001, 0x7f7fffff, 0x7effffff, 0xfe800001)] + \
            [(0x7f7fffff, 0x3f7fffff), (0x7f7fffff, 0x3effffff), (0xff000001, 0x3f000000), (0x00800000, 0x3f800001),
             (0x00800000, 0xbf800001)]
    for rnd in ["rn", "rz", "rm", "rp"]:
        for ftz in ["", ".ftz"]:
            G["op_case"]("mul_%s%s_f32_tiny" % (rnd, ftz.replace(".", "_")),
                         "   mul.%s%s.f32 %%r10, %%r2, %%r3;\n" % (rnd, ftz), None, 2, combos=tiny)
            G["op_case"]("div_%s%s_f32_tiny" % (rnd, ftz.replace(".", "_")),
                         "   div.%s%s.f32 %%r10, %%r2, %%r3;\n" % (rnd, ftz), None, 2, combos=dtiny)
    # fma: c = -(a·b) rounded, ± a few ulps, and c far from a·b
    fc = []
    for k, (a, b) in enumerate(zip(R, R[5:] + R[:5])):
        p = f32_bits_to_float(a) * f32_bits_to_float(b)
        try:
            c = f32(-p)
        except OverflowError:
            continue
        fc.append((a, b, (c + (k % 5) - 2) & 0xffffffff))
        fc.append((a, b, (R[(k + 11) % len(R)] & 0x807fffff) | ((((a >> 23) & 0xff) + ((b >> 23) & 0xff) - 127 - 30 - k) & 0xff) << 23))
    for rnd in ["rn", "rz", "rm", "rp"]:
        G["op_case"]("fma_%s_f32_cancel" % rnd, "   fma.%s.f32 %%r10, %%r2, %%r3, %%r4;\n" % rnd, None, 3, combos=fc)
    for rnd in ["rz", "rm", "rp"]:
        G["op_case"]("fma_%s_ftz_f32" % rnd, "   fma.%s.ftz.f32 %%r10, %%r2, %%r3, %%r4;\n" % rnd, S, 3)
        G["op_case"]("sqrt_%s_ftz_f32" % rnd, "   sqrt.%s.ftz.f32 %%r10, %%r2;\n" % rnd, E + R, 1)
        G["op_case"]("rcp_%s_ftz_f32" % rnd, "   rcp.%s.ftz.f32 %%r10, %%r2;\n" % rnd, E + R, 1)
        G["op_case"]("mad_%s_f32" % rnd, "   mad.%s.f32 %%r10, %%r2, %%r3, %%r4;\n" % rnd, S, 3)
        G["op_case"]("sub_%s_ftz_sat_f32" % rnd, "   sub.%s.ftz.sat.f32 %%r10, %%r2, %%r3;\n" % rnd, E, 2)
    ints = [0, 1, 0xffffffff, 2047, 2049, 2051, 4097, 0xffffefff, 65504, 65519, 65520, 65535, 100000,
            0x80000000, 0x7fffffff, 0x00ff8001, 0x01010101]
    for rnd in ["rn", "rz", "rm", "rp"]:
        if rnd != "rn":   # cvt_rn_f16_s32 is in f16_cases
            G["op_case"]("cvt_%s_f16_s32" % rnd, "   cvt.%s.f16.s32 %%h1, %%r2;\n   cvt.u32.u16 %%r10, %%h1;\n" % rnd, ints, 1)
        G["op_case"]("cvt_%s_f16_u32" % rnd, "   cvt.%s.f16.u32 %%h1, %%r2;\n   cvt.u32.u16 %%r10, %%h1;\n" % rnd, ints, 1)
        G["op_case"]("cvt_%s_bf16_s32" % rnd, "   cvt.%s.bf16.s32 %%h1, %%r2;\n   cvt.u32.u16 %%r10, %%h1;\n" % rnd, ints, 1,
                     target="sm_90")
        op64("cvt_%s_bf16_u64" % rnd, "   cvt.%s.bf16.u64 %%h1, %%x0;\n   cvt.u32.u16 %%r10, %%h1;\n" % rnd,
             U64_EDGES + [0x0000000001018001, 0x8080800000000001], 1, out32=True, target="sm_90")
    ties = E + R + [(w & 0xffff0000) | t for w in R[:12] for t in (0x8000, 0x7fff, 0x8001)] + \
           [(w & 0xffffe000) | t for w in R[12:24] for t in (0x1000, 0x0fff, 0x1001)]
    G["op_case"]("cvt_rn_bf16_f32_ties", "   cvt.rn.bf16.f32 %h4, %r2;\n   cvt.u32.u16 %r10, %h4;\n", ties, 1, target="sm_80")
    G["op_case"]("cvt_rz_bf16_f32", "   cvt.rz.bf16.f32 %h4, %r2;\n   cvt.u32.u16 %r10, %h4;\n", ties, 1, target="sm_80")
    G["op_case"]("cvt_rz_f16x2_f32", "   cvt.rz.f16x2.f32 %r10, %r2, %r3;\n", S, 2, target="sm_80")
    G["op_case"]("cvt_rz_bf16x2_f32", "   cvt.rz.bf16x2.f32 %r10, %r2, %r3;\n", S, 2, target="sm_80")
    G["op_case"]("cvt_ftz_f32_bf16", "   cvt.u16.u32 %h1, %r2;\n   cvt.ftz.f32.bf16 %r10, %h1;\n",
                 [0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0x7fc0, 0xffc1, 0x7f80], 1, target="sm_90")
    for rnd in ["rni", "rzi", "rmi", "rpi"]:
        G["op_case"]("cvt_%s_s32_bf16" % rnd, "   cvt.u16.u32 %%h1, %%r2;\n   cvt.%s.s32.bf16 %%r10, %%h1;\n" % rnd,
                     [0x0000, 0x8000, 0x3f00, 0x3fc0, 0xbfc0, 0x4020, 0xc020, 0x4f00, 0x4eff, 0xcf00, 0xcf01,
                      0x7f80, 0xff80, 0x7fc0, 0x0001], 1, target="sm_90")
    # an exact product halfway between two halves, plus a c below f32's last place
    pre = "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n   cvt.u16.u32 %h3, %r4;\n"
    post = "   cvt.u32.u16 %r10, %h4;\n"
    ht = [(a, b, c) for a, b in [(0x4200, 0x3c01), (0x4200, 0x3c03), (0xc200, 0x3c05), (0x3e00, 0x3c01)]
          for c in (0x0001, 0x8001, 0x0000, 0x8000)]
    bt = [(a, b, c) for a, b in [(0x4040, 0x3f81), (0x4040, 0x3f83), (0xc040, 0x3f85), (0x3fc0, 0x3f81)]
          for c in (0x0001, 0x8001, 0x0000, 0x8000)]
    G["op_case"]("fma_rn_f16_ties", pre + "   fma.rn.f16 %h4, %h1, %h2, %h3;\n" + post, None, 3, combos=ht)
    G["op_case"]("fma_rn_bf16_ties", pre + "   fma.rn.bf16 %h4, %h1, %h2, %h3;\n" + post, None, 3, combos=bt,
                 target="sm_80")
    G["op_case"]("fma_rn_f16x2_ties", "   fma.rn.f16x2 %r10, %r2, %r3, %r4;\n", None, 3,
                 combos=[(a | b << 16, b | a << 16, c | (c ^ 0x8000) << 16) for a, b, c in ht])
    # bf16 and packed forms
    B = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x7f7f, 0x4049, 0x3c00, 0xc2c8, 0x0080, 0x807f]
    bpairs = [(a | (b << 16)) for a, b in zip(B, B[3:] + B[:3])]
    H = G["F16_EDGES"]
    hpairs = [(a | (b << 16)) for a, b in zip(H, H[3:] + H[:3])]
    for op in ["add.bf16x2", "sub.bf16x2", "mul.bf16x2"]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2, %%r3;\n" % op, bpairs, 2, target="sm_90")
    G["op_case"]("fma_rn_bf16x2", "   fma.rn.bf16x2 %r10, %r2, %r3, %r4;\n", bpairs[:9], 3, target="sm_80")
    pre_b = "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n   cvt.u16.u32 %h3, %r4;\n"
    G["op_case"]("fma_rn_bf16", pre_b + "   fma.rn.bf16 %h4, %h1, %h2, %h3;\n" + post, B[:9], 3, target="sm_80")
    for op, t in [("min.bf16", "sm_80"), ("max.bf16", "sm_80"), ("min.NaN.bf16", "sm_80"),
                  ("max.xorsign.abs.bf16", "sm_86"), ("min.NaN.f16", "sm_80"), ("max.xorsign.abs.f16", "sm_86")]:
        G["op_case"](op.replace(".", "_"), pre_b + "   %s %%h4, %%h1, %%h2;\n" % op + post,
                     B if "bf16" in op else H, 2, target=t)
    for op in ["neg.bf16", "abs.bf16"]:
        G["op_case"](op.replace(".", "_"), pre_b + "   %s %%h4, %%h1;\n" % op + post, B, 1, target="sm_80")
    for op, t, v in [("min.bf16x2", "sm_80", bpairs), ("max.NaN.bf16x2", "sm_80", bpairs),
                     ("min.xorsign.abs.bf16x2", "sm_86", bpairs), ("max.NaN.f16x2", "sm_80", hpairs),
                     ("min.xorsign.abs.f16x2", "sm_86", hpairs), ("min.ftz.f16x2", "sm_80", hpairs),
                     ("add.ftz.sat.f16x2", "sm_75", hpairs), ("mul.ftz.f16x2", "sm_75", hpairs),
                     ("min.ftz.NaN.f32", "sm_80", S), ("max.ftz.NaN.xorsign.abs.f32", "sm_86", S)]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2, %%r3;\n" % op, v, 2, target=t)
    for op, t, v in [("neg.bf16x2", "sm_80", bpairs), ("abs.bf16x2", "sm_80", bpairs), ("neg.f16x2", "sm_75", hpairs),
                     ("abs.f16x2", "sm_75", hpairs), ("abs.ftz.f16x2", "sm_75", hpairs)]:
        G["op_case"](op.replace(".", "_"), "   %s %%r10, %%r2;\n" % op, v, 1, target=t)
    G["op_case"]("fma_rn_ftz_sat_f16x2", "   fma.rn.ftz.sat.f16x2 %r10, %r2, %r3, %r4;\n", hpairs[:8], 3)

def cvt_more_cases():
    C = G["F32_CONV"]
    for rnd in ["rni", "rzi", "rmi", "rpi"]:
        for dst in ["s64", "u64"]:
            G["op_case"]("cvt_%s_%s_f32" % (rnd, dst),
                         "   cvt.%s.%s.f32 %%rd7, %%r2;\n   cvt.u32.u64 %%r10, %%rd7;\n   shr.u64 %%rd8, %%rd7, 32;\n"
                         "   cvt.u32.u64 %%r11, %%rd8;\n   xor.b32 %%r10, %%r10, %%r11;\n" % (rnd, dst), C, 1)
        for dst in ["s8", "u16"]:
            G["op_case"]("cvt_%s_%s_f32" % (rnd, dst),
                         "   cvt.%s.%s.f32 %%h1, %%r2;\n   cvt.u32.u16 %%r10, %%h1;\n" % (rnd, dst), C, 1)
    G["op_case"]("cvt_ftz_rni_f32_f32", "   cvt.rni.ftz.f32.f32 %r10, %r2;\n", C, 1)
    G["op_case"]("cvt_sat_f32_f32", "   cvt.sat.f32.f32 %r10, %r2;\n", G["F32_EDGES"], 1)
    G["op_case"]("cvt_rn_f32_u64", "   cvt.u64.u32 %rd7, %r2;\n   shl.b64 %rd7, %rd7, 33;\n   cvt.rn.f32.u64 %r10, %rd7;\n",
                 G["U32_EDGES"], 1)
    G["op_case"]("cvt_sat_u32_s64", "   cvt.s64.s32 %rd7, %r2;\n   mul.lo.s64 %rd7, %rd7, 3;\n"
                 "   cvt.sat.u32.s64 %r10, %rd7;\n", G["U32_EDGES"], 1)
    G["op_case"]("cvt_s8_s32_nosat", "   cvt.s8.s32 %h1, %r2;\n   cvt.s32.s8 %r10, %h1;\n", G["U32_EDGES"], 1)

def f64_cases():
    rng = random.Random(64)
    R = rnd_f64(rng, 48)
    RR = list(zip(R, R[5:] + R[:5]))
    for rnd in ["rn", "rz", "rm", "rp"]:
        for op in ["add", "sub", "mul", "div"]:
            op64("%s_%s_f64" % (op, rnd), "   %s.%s.f64 %%x5, %%x0, %%x1;\n" % (op, rnd), F64_EDGES, 2)
            op64("%s_%s_f64_random" % (op, rnd), "   %s.%s.f64 %%x5, %%x0, %%x1;\n" % (op, rnd), combos=RR)
        op64("fma_%s_f64" % rnd, "   fma.%s.f64 %%x5, %%x0, %%x1, %%x2;\n" % rnd, F64_SMALL, 3)
        op64("fma_%s_f64_random" % rnd, "   fma.%s.f64 %%x5, %%x0, %%x1, %%x2;\n" % rnd, nops=3,
             combos=list(zip(R, R[3:] + R[:3], R[17:] + R[:17])))
        op64("sqrt_%s_f64" % rnd, "   sqrt.%s.f64 %%x5, %%x0;\n" % rnd, F64_EDGES + [r & ~(1 << 63) for r in R], 1)
        op64("rcp_%s_f64" % rnd, "   rcp.%s.f64 %%x5, %%x0;\n" % rnd, F64_EDGES + R, 1)
        op64("cvt_%s_f32_f64" % rnd, "   cvt.%s.f32.f64 %%r10, %%x0;\n" % rnd,
             F64_EDGES + R + [f64(3.4028235677973366e38), f64(1.401298464324817e-45), f64(7e-46)], 1, out32=True)
        for src in ["s32", "u32", "s64", "u64"]:
            op64("cvt_%s_f64_%s" % (rnd, src), "   cvt.%s.f64.%s %%x5, %%x0;\n" % (rnd, src)
                 if src.endswith("64") else "   cvt.u32.u64 %%r2, %%x0;\n   cvt.%s.f64.%s %%x5, %%r2;\n" % (rnd, src),
                 U64_EDGES + [0x0020000000000001, 0xfffffffffffff801], 1)
    for rnd in ["rni", "rzi", "rmi", "rpi"]:
        for dst in ["s32", "u32", "s64", "u64"]:
            op64("cvt_%s_%s_f64" % (rnd, dst), "   cvt.%s.%s.f64 %%x5, %%x0;\n" % (rnd, dst)
                 if dst.endswith("64") else "   cvt.%s.%s.f64 %%r10, %%x0;\n" % (rnd, dst),
                 F64_EDGES + [f64(x) for x in (0.5, 1.5, 2.5, -0.5, -1.5, 2147483647.5, 4294967295.5,
                                               -2147483648.5, 9.3e18, 1.9e19, -9.3e18)], 1,
                 out32=not dst.endswith("64"))
        op64("cvt_%s_f64_f64" % rnd, "   cvt.%s.f64.f64 %%x5, %%x0;\n" % rnd, F64_EDGES + R, 1)
    op64("cvt_f64_f32", "   cvt.u32.u64 %r2, %x0;\n   cvt.f64.f32 %x5, %r2;\n",
         [w for w in G["F32_EDGES"]] + [0x00000001, 0x807fffff], 1)
    for op in ["min.f64", "max.f64", "copysign.f64"]:
        op64(op.replace(".", "_"), "   %s %%x5, %%x0, %%x1;\n" % op, F64_SMALL, 2)
    for op in ["abs.f64", "neg.f64"]:
        op64(op.replace(".", "_"), "   %s %%x5, %%x0;\n" % op, F64_EDGES, 1)
    for cmp in ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]:
        op64("setp_%s_f64" % cmp, "   setp.%s.f64 %%p1, %%x0, %%x1;\n   selp.u32 %%r10, 1, 0, %%p1;\n" % cmp,
             F64_SMALL, 2, out32=True)
    for cls in ["finite", "infinite", "number", "notanumber", "normal", "subnormal"]:
        op64("testp_%s_f64" % cls, "   testp.%s.f64 %%p1, %%x0;\n   selp.u32 %%r10, 1, 0, %%p1;\n" % cls, F64_EDGES, 1,
             out32=True)
    op64("rsqrt_approx_f64", "   rsqrt.approx.f64 %x5, %x0;\n", [f64(x) for x in (1.0, 2.0, 0.25, 1e10, 3.5)], 1,
         extra=["ulp: 1"])
    op64("rcp_approx_ftz_f64", "   rcp.approx.ftz.f64 %x5, %x0;\n", [f64(x) for x in (1.0, 2.0, 0.25, 1e10, 3.5)], 1,
         extra=["rel: 1e-6"])
    op64("mad_rn_f64", "   mad.rn.f64 %x5, %x0, %x1, %x2;\n", F64_SMALL[:6], 3)
    op64("selp_f64", "   setp.ne.u64 %p1, %x2, 0;\n   selp.f64 %x5, %x0, %x1, %p1;\n",
         [f64(1.5), f64(-2.0), 0x7ff8000000000000, 0, 1], 3)
    op64("mov_b64_f64_unpack", "   mov.b64 {%r2, %r3}, %x0;\n   mov.b64 %x5, {%r3, %r2};\n", F64_EDGES, 1)

def warp_cases():
    """Block of 64 threads (2 warps); each thread loads in[tid]."""
    vals = [(k * 2654435761) & 0xffffffff for k in range(64)]
    def wcase(name, instr, target="sm_75", data=vals):
        comments = ["block: 64"] + G["in_lines"](data) + ["out: u32 64"]
        G["write_case"](name, comments, G["load_operands"](1) + instr + G["STORE32"], target)
    for mode in ["up", "down", "bfly", "idx"]:
        for b, c in [(1, 0x1f), (5, 0x1f), (3, 0x0), (2, 0x1c1f), (31, 0x1f), (0, 0x1f)]:
            wcase("shfl_sync_%s_%d_%x" % (mode, b, c),
                  "   shfl.sync.%s.b32 %%r10|%%p1, %%r2, %d, 0x%x, 0xffffffff;\n   selp.u32 %%r11, 0x80000000, 0, %%p1;\n"
                  "   xor.b32 %%r10, %%r10, %%r11;\n" % (mode, b, c))
    wcase("shfl_sync_idx_dynamic", "   and.b32 %r5, %r2, 31;\n   shfl.sync.idx.b32 %r10, %r2, %r5, 0x1f, 0xffffffff;\n")
    wcase("vote_sync_all", "   and.b32 %r5, %r2, 1;\n   setp.ne.u32 %p1, %r5, 0;\n"
          "   vote.sync.all.pred %p2, %p1, 0xffffffff;\n   selp.u32 %r10, 1, 0, %p2;\n")
    wcase("vote_sync_any", "   and.b32 %r5, %r1, 31;\n   setp.eq.u32 %p1, %r5, 7;\n"
          "   vote.sync.any.pred %p2, %p1, 0xffffffff;\n   selp.u32 %r10, 1, 0, %p2;\n")
    wcase("vote_sync_uni", "   shr.u32 %r5, %r1, 5;\n   setp.eq.u32 %p1, %r5, 1;\n"
          "   vote.sync.uni.pred %p2, %p1, 0xffffffff;\n   selp.u32 %r10, 1, 0, %p2;\n")
    wcase("vote_sync_ballot", "   and.b32 %r5, %r2, 1;\n   setp.ne.u32 %p1, %r5, 0;\n"
          "   vote.sync.ballot.b32 %r10, %p1, 0xffffffff;\n")
    wcase("activemask_full", "   activemask.b32 %r10;\n")
    wcase("activemask_divergent", "   and.b32 %r5, %r1, 3;\n   setp.eq.u32 %p1, %r5, 0;\n   mov.u32 %r10, 0;\n"
          "   @%p1 bra SKIP;\n   activemask.b32 %r10;\nSKIP:\n")
    wcase("match_any_sync", "   and.b32 %r5, %r2, 3;\n   match.any.sync.b32 %r10, %r5, 0xffffffff;\n")
    wcase("match_all_sync", "   shr.u32 %r5, %r1, 5;\n   match.all.sync.b32 %r10|%p1, %r5, 0xffffffff;\n"
          "   selp.u32 %r11, 0x80000000, 0, %p1;\n   or.b32 %r10, %r10, %r11;\n")
    for op in ["add.u32", "min.u32", "max.u32", "min.s32", "max.s32", "and.b32", "or.b32", "xor.b32"]:
        wcase("redux_sync_%s" % op.replace(".", "_"), "   redux.sync.%s %%r10, %%r2, 0xffffffff;\n" % op, target="sm_80")
    wcase("laneid_warpid", "   mov.u32 %r5, %laneid;\n   mov.u32 %r6, WARP_SZ;\n   mad.lo.u32 %r10, %r6, 1000, %r5;\n")
    wcase("lanemask_lt_ge", "   mov.u32 %r5, %lanemask_lt;\n   mov.u32 %r6, %lanemask_ge;\n   xor.b32 %r10, %r5, %r6;\n")
    wcase("bar_warp_sync", "   bar.warp.sync 0xffffffff;\n   add.u32 %r10, %r2, 1;\n")

def atomic_cases():
    """Every thread of a block hits out[0] (and out[1]); the final value
    is deterministic.  The out buffer starts as 0xdededede words."""
    vals = [(k * 2246822519) & 0xffffffff for k in range(128)]
    body_addr = "   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd4, %rd1, %rd3;\n   ld.global.u32 %r2, [%rd4];\n"
    def acase(name, instr, n=128, data=vals, target="sm_75"):
        comments = ["block: %d" % n] + G["in_lines"](data[:n]) + ["out: u32 4"]
        G["write_case"](name, comments, body_addr + instr, target)
    for op in ["add.u32", "min.u32", "max.u32", "min.s32", "max.s32", "and.b32", "or.b32", "xor.b32"]:
        acase("atom_global_%s" % op.replace(".", "_"), "   atom.global.%s %%r10, [%%rd2], %%r2;\n" % op)
        acase("red_global_%s" % op.replace(".", "_"), "   red.global.%s [%%rd2+4], %%r2;\n" % op)
    acase("atom_global_inc", "   atom.global.inc.u32 %r10, [%rd2], 100;\n")
    acase("atom_global_dec", "   atom.global.dec.u32 %r10, [%rd2+8], 1000;\n")
    acase("atom_global_add_f32", "   and.b32 %r5, %r2, 255;\n   cvt.rn.f32.u32 %r6, %r5;\n"
          "   atom.global.add.f32 %r10, [%rd2], %r6;\n")
    acase("atom_global_cas_count", "   mov.u32 %r5, 0xdededede;\n   atom.global.cas.b32 %r10, [%rd2+12], %r5, 7;\n"
          "   setp.eq.u32 %p1, %r10, %r5;\n   selp.u32 %r6, 1, 0, %p1;\n   atom.global.add.u32 %r7, [%rd2+4], %r6;\n")
    acase("atom_generic_add", "   cvta.global.u64 %rd7, %rd2;\n   atom.add.u32 %r10, [%rd7], 1;\n")
    acase("atom_shared_add_then_store", "   .shared .align 4 .b32 acc;\n   setp.eq.u32 %p1, %r1, 0;\n"
          "   @%p1 st.shared.u32 [acc], 5;\n   bar.sync 0;\n   atom.shared.add.u32 %r10, [acc], %r2;\n"
          "   bar.sync 0;\n   @%p1 ld.shared.u32 %r11, [acc];\n   @%p1 st.global.u32 [%rd2], %r11;\n")
    # exch of one value by every thread: the final word and the sum of the
    # returned old values are deterministic
    acase("atom_global_exch_same", "   atom.global.exch.b32 %r10, [%rd2], 77;\n   red.global.add.u32 [%rd2+4], %r10;\n")
    # the multiset of values atom returns is deterministic: sum them
    acase("atom_global_add_returns", "   atom.global.add.u32 %r10, [%rd2], 3;\n   red.global.add.u32 [%rd2+4], %r10;\n"
          "   atom.global.inc.u32 %r11, [%rd2+8], 9;\n   red.global.add.u32 [%rd2+12], %r11;\n")
    acase("atom_global_dec_returns", "   atom.global.dec.u32 %r10, [%rd2+8], 20;\n   red.global.xor.b32 [%rd2+4], %r10;\n"
          "   atom.global.min.s32 %r11, [%rd2], %r2;\n   red.global.max.s32 [%rd2+12], %r11;\n")
    # orderings and scopes, fences: same values as relaxed; every word is
    # independent of the order the threads' atomics run in (the values they
    # return are not: atom_global_add_returns checks those)
    acase("atom_sem_scope_forms", "   atom.acquire.gpu.global.add.u32 %r10, [%rd2], 1;\n"
          "   atom.release.cta.global.add.u32 %r11, [%rd2], 2;\n   atom.acq_rel.sys.global.add.u32 %r12, [%rd2], 4;\n"
          "   atom.relaxed.gpu.global.max.u32 %r13, [%rd2+4], %r2;\n   red.release.gpu.global.add.u32 [%rd2+8], %r2;\n"
          "   red.relaxed.cta.global.or.b32 [%rd2+12], %r2;\n   fence.sc.cta;\n   fence.acq_rel.gpu;\n   fence.sc.sys;\n"
          "   membar.cta;\n   membar.gl;\n   membar.sys;\n   atom.global.sys.add.u32 %r14, [%rd2+8], %r1;\n"
          "   atom.global.cta.add.u32 %r14, [%rd2+8], 3;\n")
    # guarded atomics: odd threads inc, even threads dec; the destination
    # keeps its value where the guard fails
    acase("atom_global_guarded", "   and.b32 %r5, %r1, 1;\n   setp.eq.u32 %p1, %r5, 1;\n   mov.u32 %r10, 5;\n"
          "   @%p1 atom.global.inc.u32 %r10, [%rd2], 40;\n   @!%p1 atom.global.dec.u32 %r10, [%rd2+4], 40;\n"
          "   red.global.add.u32 [%rd2+8], %r10;\n   @%p1 red.global.add.u32 [%rd2+12], 1;\n")
    # every operation on shared memory, all threads on the same words
    shared_ops = ("   .shared .align 4 .b32 sa[12];\n   setp.eq.u32 %p1, %r1, 0;\n   @!%p1 bra INIT;\n"
                  + "".join("   st.shared.u32 [sa+%d], %d;\n" % (4 * k, v) for k, v in
                            enumerate([0, 0x7fffffff, 0, 0xffffffff, 0, 0x55, 3, 1000, 0, 0x12345678, 0, 0]))
                  + "INIT:\n   bar.sync 0;\n   atom.shared.add.u32 %r10, [sa], %r2;\n   atom.shared.min.s32 %r10, [sa+4], %r2;\n"
                  "   atom.shared.max.u32 %r10, [sa+8], %r2;\n   atom.shared.and.b32 %r10, [sa+12], %r2;\n"
                  "   atom.shared.or.b32 %r10, [sa+16], %r2;\n   atom.shared.xor.b32 %r10, [sa+20], %r2;\n"
                  "   atom.shared.inc.u32 %r10, [sa+24], 17;\n   atom.shared.dec.u32 %r10, [sa+28], 900;\n"
                  "   atom.shared.exch.b32 %r10, [sa+32], 9;\n   atom.shared.cas.b32 %r10, [sa+36], 0x12345678, 7;\n"
                  "   setp.eq.u32 %p2, %r10, 0x12345678;\n   @%p2 red.shared.add.u32 [sa+40], 1;\n"
                  "   mov.u64 %rd7, sa;\n   cvta.shared.u64 %rd8, %rd7;\n   atom.max.s32 %r10, [%rd8+44], %r2;\n"
                  "   bar.sync 0;\n   @!%p1 bra DONE;\n"
                  + "".join("   ld.shared.u32 %%r11, [sa+%d];\n   st.global.u32 [%%rd2+%d], %%r11;\n" % (4 * k, 4 * k)
                            for k in range(12)) + "DONE:\n")
    comments = ["block: 128"] + G["in_lines"](vals) + ["out: u32 12"]
    G["write_case"]("atom_shared_ops", comments, body_addr + shared_ops)
    # add.f32: subnormals flushed on global memory, kept on shared memory
    # (PTX ISA atom); each thread its own word, old value returned
    F = [0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x3f800000, 0x33800000, 0x7f800000,
         0xff800000, 0x7fc00000, 0x7fa00001, 0x80000000, 0x00000000, 0x7f7fffff, 0x4b800000, 0xbf800000]
    pairs = [w for a in F for b in F for w in (a, b)]
    fadd_load = ("   mul.wide.u32 %rd3, %r1, 8;\n   add.s64 %rd4, %rd1, %rd3;\n   ld.global.u32 %r2, [%rd4];\n"
                 "   ld.global.u32 %r3, [%rd4+4];\n   add.s64 %rd5, %rd2, %rd3;\n")
    def fcase(name, body):
        comments = ["block: 256"] + G["in_lines"](pairs) + ["out: u32 512"]
        G["write_case"](name, comments, fadd_load + body)
    fcase("atom_global_add_f32_edges", "   st.global.u32 [%rd5], %r2;\n   atom.global.add.f32 %r10, [%rd5], %r3;\n"
          "   st.global.u32 [%rd5+4], %r10;\n")
    fcase("atom_generic_global_add_f32_edges", "   st.global.u32 [%rd5], %r2;\n   cvta.global.u64 %rd6, %rd5;\n"
          "   atom.add.f32 %r10, [%rd6], %r3;\n   st.global.u32 [%rd5+4], %r10;\n")
    fcase("atom_shared_add_f32_edges", "   .shared .align 4 .b32 sf[256];\n   mov.u64 %rd7, sf;\n"
          "   mul.wide.u32 %rd8, %r1, 4;\n   add.s64 %rd7, %rd7, %rd8;\n   st.shared.u32 [%rd7], %r2;\n"
          "   atom.shared.add.f32 %r10, [%rd7], %r3;\n   ld.shared.u32 %r11, [%rd7];\n   st.global.u32 [%rd5], %r11;\n"
          "   st.global.u32 [%rd5+4], %r10;\n")
    fcase("atom_generic_shared_add_f32_edges", "   .shared .align 4 .b32 sf[256];\n   mov.u64 %rd7, sf;\n"
          "   mul.wide.u32 %rd8, %r1, 4;\n   add.s64 %rd7, %rd7, %rd8;\n   st.shared.u32 [%rd7], %r2;\n"
          "   cvta.shared.u64 %rd9, %rd7;\n   atom.add.f32 %r10, [%rd9], %r3;\n   red.add.f32 [%rd9], 0f00000000;\n"
          "   ld.shared.u32 %r11, [%rd7];\n   st.global.u32 [%rd5], %r11;\n   st.global.u32 [%rd5+4], %r10;\n")

def atomic64_cases():
    """64-bit and 16-bit atomics (issue 6): every thread of a block on the
    same words, so the final values and the sums of the returned values are
    deterministic; a cas swaps in a constant and its winners are counted.
    The out buffer starts as 0xde bytes."""
    rng = random.Random(6406)
    vals = [rng.getrandbits(64) for _ in range(128)]
    load = ("   .reg .b64 %x<8>;\n   mul.wide.u32 %rd3, %r1, 8;\n   add.s64 %rd4, %rd1, %rd3;\n"
            "   ld.global.u64 %x0, [%rd4];\n")
    def acase(name, instr, nout, data=vals, target="sm_75", decls=""):
        comments = ["block: 128"] + G["in_lines"](data, 64) + ["out: u64 %d" % nout]
        G["write_case"](name, comments, load + instr, target, decls)
    acase("atom64_global_add", "   atom.global.add.u64 %x5, [%rd2], %x0;\n   red.global.add.u64 [%rd2+8], %x0;\n"
          "   atom.global.add.u64 %x6, [%rd2+16], 0x100000003;\n   red.global.add.u64 [%rd2+24], %x6;\n"
          "   atom.global.add.u64 %x6, [%rd2+32], -1;\n   red.global.xor.b64 [%rd2+40], %x6;\n", 6)
    acase("atom64_global_minmax", "   atom.global.min.s64 %x5, [%rd2], %x0;\n   atom.global.max.s64 %x5, [%rd2+8], %x0;\n"
          "   atom.global.min.u64 %x5, [%rd2+16], %x0;\n   atom.global.max.u64 %x5, [%rd2+24], %x0;\n"
          "   red.global.min.s64 [%rd2+32], %x0;\n   red.global.max.s64 [%rd2+40], %x0;\n"
          "   red.global.min.u64 [%rd2+48], %x0;\n   red.global.max.u64 [%rd2+56], %x0;\n", 8)
    # min/max return the old value: the sum of min.u64's returns is not
    # order-independent, but with the constant 5 every return but the first
    # is 5
    acase("atom64_global_min_returns", "   atom.global.min.u64 %x5, [%rd2], 5;\n   red.global.add.u64 [%rd2+8], %x5;\n"
          "   atom.global.max.s64 %x6, [%rd2+16], -7;\n   red.global.add.u64 [%rd2+24], %x6;\n", 4)
    acase("atom64_global_bitwise", "   atom.global.and.b64 %x5, [%rd2], %x0;\n   atom.global.or.b64 %x5, [%rd2+8], %x0;\n"
          "   atom.global.xor.b64 %x5, [%rd2+16], %x0;\n   red.global.and.b64 [%rd2+24], %x0;\n"
          "   red.global.or.b64 [%rd2+32], %x0;\n   red.global.xor.b64 [%rd2+40], %x0;\n"
          "   atom.global.xor.b64 %x6, [%rd2+48], 0x8000000100000001;\n   red.global.add.u64 [%rd2+56], %x6;\n", 8)
    acase("atom64_global_exch_cas", "   atom.global.exch.b64 %x5, [%rd2], 0x123456789abcdef0;\n"
          "   red.global.add.u64 [%rd2+8], %x5;\n   mov.u64 %x1, 0xdededededededede;\n"
          "   atom.global.cas.b64 %x6, [%rd2+16], %x1, 0x7000000000000007;\n   setp.eq.u64 %p1, %x6, %x1;\n"
          "   selp.u64 %x7, 1, 0, %p1;\n   red.global.add.u64 [%rd2+24], %x7;\n"
          "   atom.global.cas.b64 %x6, [%rd2+32], 5, %x0;\n   red.global.add.u64 [%rd2+40], %x6;\n", 6)
    # a CAS-loop increment: every thread retries until its cas wins, so the
    # word ends at its start plus the number of threads
    acase("atom64_global_cas_loop", "   ld.global.u64 %x1, [%rd2];\nRETRY:\n   add.u64 %x2, %x1, 0x100000001;\n"
          "   atom.global.cas.b64 %x3, [%rd2], %x1, %x2;\n   setp.ne.u64 %p1, %x3, %x1;\n   mov.u64 %x1, %x3;\n"
          "   @%p1 bra RETRY;\n   red.global.add.u64 [%rd2+8], %x3;\n", 2)
    acase("atom64_generic_global", "   cvta.global.u64 %rd7, %rd2;\n   atom.add.u64 %x5, [%rd7], %x0;\n"
          "   atom.max.s64 %x5, [%rd7+8], %x0;\n   atom.or.b64 %x5, [%rd7+16], %x0;\n"
          "   atom.exch.b64 %x5, [%rd7+24], 9;\n   red.add.u64 [%rd7+32], %x5;\n   red.min.u64 [%rd7+40], %x0;\n", 6)
    acase("atom64_sem_scope_forms", "   atom.acquire.gpu.global.add.u64 %x5, [%rd2], 1;\n"
          "   atom.release.cta.global.add.u64 %x5, [%rd2], 2;\n   atom.acq_rel.sys.global.add.u64 %x5, [%rd2], 4;\n"
          "   atom.relaxed.gpu.global.max.u64 %x5, [%rd2+8], %x0;\n   red.release.gpu.global.add.u64 [%rd2+16], %x0;\n"
          "   red.relaxed.cta.global.or.b64 [%rd2+24], %x0;\n   atom.sys.global.exch.b64 %x5, [%rd2+32], 3;\n"
          "   atom.cta.global.cas.b64 %x5, [%rd2+40], 0, 1;\n", 6)
    # every operation on shared memory, all threads on the same words, and
    # generic addresses into shared memory
    init = [0, 0x7fffffffffffffff, 0, 0xffffffffffffffff, 0, 0x55, 0x1234, 0, 0xdead, 0, 0, 0]
    shared = ("   .shared .align 8 .b64 sa[12];\n   setp.eq.u32 %p1, %r1, 0;\n   @!%p1 bra INIT;\n"
              + "".join("   st.shared.u64 [sa+%d], %d;\n" % (8 * k, v) for k, v in enumerate(init))
              + "INIT:\n   bar.sync 0;\n   atom.shared.add.u64 %x5, [sa], %x0;\n   atom.shared.min.s64 %x5, [sa+8], %x0;\n"
              "   atom.shared.max.u64 %x5, [sa+16], %x0;\n   atom.shared.and.b64 %x5, [sa+24], %x0;\n"
              "   atom.shared.or.b64 %x5, [sa+32], %x0;\n   atom.shared.xor.b64 %x5, [sa+40], %x0;\n"
              "   atom.shared.exch.b64 %x5, [sa+48], 9;\n   red.shared.add.u64 [sa+56], %x5;\n"
              "   atom.shared.cas.b64 %x5, [sa+64], 0xdead, 7;\n   setp.eq.u64 %p2, %x5, 0xdead;\n"
              "   @%p2 red.shared.add.u64 [sa+72], 1;\n   mov.u64 %rd7, sa;\n   cvta.shared.u64 %rd8, %rd7;\n"
              "   atom.add.u64 %x5, [%rd8+80], 3;\n   red.add.u64 [%rd8+88], %x5;\n"
              "   bar.sync 0;\n   @!%p1 bra DONE;\n"
              + "".join("   ld.shared.u64 %%x6, [sa+%d];\n   st.global.u64 [%%rd2+%d], %%x6;\n" % (8 * k, 8 * k)
                        for k in range(12)) + "DONE:\n")
    acase("atom64_shared_ops", shared, 12)
    # forms the corpus has and the cases above do not: generic max.u64 and
    # add.noftz.f16x2, shared max.s64 and min.u64
    acase("atom64_more_forms", "   .shared .align 8 .b64 sm[2];\n   setp.eq.u32 %p1, %r1, 0;\n"
          "   @%p1 st.shared.u64 [sm], 0x8000000000000000;\n   @%p1 st.shared.u64 [sm+8], -1;\n   bar.sync 0;\n"
          "   atom.shared.max.s64 %x5, [sm], %x0;\n   atom.shared.min.u64 %x5, [sm+8], %x0;\n"
          "   cvta.global.u64 %rd7, %rd2;\n   atom.max.u64 %x5, [%rd7], %x0;\n   cvt.u32.u64 %r2, %x0;\n"
          "   and.b32 %r3, %r2, 1;\n   cvt.rn.f16.u32 %h1, %r3;\n   shr.u32 %r4, %r2, 16;\n   and.b32 %r4, %r4, 1;\n"
          "   cvt.rn.f16.u32 %h2, %r4;\n   mov.b32 %r5, {%h1, %h2};\n   @%p1 st.global.u32 [%rd7+8], 0;\n"
          "   bar.sync 0;\n   atom.add.noftz.f16x2 %r6, [%rd7+8], %r5;\n   bar.sync 0;\n   @!%p1 bra DONE;\n"
          "   ld.shared.u64 %x6, [sm];\n   st.global.u64 [%rd2+16], %x6;\n   ld.shared.u64 %x6, [sm+8];\n"
          "   st.global.u64 [%rd2+24], %x6;\nDONE:\n", 4, target="sm_70")
    # add.f64: values with exact sums (multiples of 1/4), so the final
    # value is order-independent; then a thread per word on edge values
    fv = [f64(((k * 37) % 201 - 100) * 0.25) for k in range(128)]
    acase("atom64_global_add_f64", "   setp.eq.u32 %p1, %r1, 0;\n   @%p1 st.global.u64 [%rd2], 0;\n"
          "   @%p1 st.global.u64 [%rd2+8], 0x4059000000000000;\n   bar.sync 0;\n"
          "   atom.global.add.f64 %x5, [%rd2], %x0;\n   red.global.add.f64 [%rd2+8], %x0;\n"
          "   cvta.global.u64 %rd7, %rd2;\n   red.add.f64 [%rd7+8], %x0;\n", 2, fv, "sm_60")
    acase("atom64_shared_add_f64", "   .shared .align 8 .b64 sd[2];\n   setp.eq.u32 %p1, %r1, 0;\n"
          "   @%p1 st.shared.u64 [sd], 0;\n   @%p1 st.shared.u64 [sd+8], 0xc000000000000000;\n   bar.sync 0;\n"
          "   atom.shared.add.f64 %x5, [sd], %x0;\n   mov.u64 %rd7, sd;\n   cvta.shared.u64 %rd8, %rd7;\n"
          "   atom.add.f64 %x5, [%rd8+8], %x0;\n   bar.sync 0;\n   @!%p1 bra DONE;\n   ld.shared.u64 %x6, [sd];\n"
          "   st.global.u64 [%rd2], %x6;\n   ld.shared.u64 %x6, [sd+8];\n   st.global.u64 [%rd2+8], %x6;\nDONE:\n",
          2, fv, "sm_60")
    pairs = [w for a in F64_SMALL for b in F64_SMALL for w in (a, b)]
    edge_load = ("   .reg .b64 %x<8>;\n   mul.wide.u32 %rd3, %r1, 16;\n   add.s64 %rd4, %rd1, %rd3;\n"
                 "   ld.global.u64 %x0, [%rd4];\n   ld.global.u64 %x1, [%rd4+8];\n   add.s64 %rd5, %rd2, %rd3;\n")
    def ecase(name, body):
        comments = ["block: %d" % (len(pairs) // 2)] + G["in_lines"](pairs, 64) + ["out: u64 %d" % len(pairs)]
        G["write_case"](name, comments, edge_load + body, "sm_60")
    ecase("atom64_global_add_f64_edges", "   st.global.u64 [%rd5], %x0;\n   atom.global.add.f64 %x5, [%rd5], %x1;\n"
          "   st.global.u64 [%rd5+8], %x5;\n")
    ecase("atom64_shared_add_f64_edges", "   .shared .align 8 .b64 se[100];\n   mov.u64 %rd7, se;\n"
          "   mul.wide.u32 %rd8, %r1, 8;\n   add.s64 %rd7, %rd7, %rd8;\n   st.shared.u64 [%rd7], %x0;\n"
          "   atom.shared.add.f64 %x5, [%rd7], %x1;\n   ld.shared.u64 %x6, [%rd7];\n   st.global.u64 [%rd5], %x6;\n"
          "   st.global.u64 [%rd5+8], %x5;\n")
    # 16-bit: add.noftz.{f16,bf16} and their x2 forms, every thread on both
    # halves of one word (small integers: exact sums); cas.b16 counts its
    # one winner and leaves the other half alone
    small = [(k * 7) % 3 for k in range(128)]
    hload = ("   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd4, %rd1, %rd3;\n   ld.global.u32 %r2, [%rd4];\n"
             "   cvt.rn.f16.u32 %h1, %r2;\n   cvt.rn.f32.u32 %f1, %r2;\n   cvt.rn.bf16.f32 %h2, %f1;\n   mov.b32 %r3, {%h1, %h1};\n"
             "   mov.b32 %r4, {%h2, %h2};\n")
    def hcase(name, instr, target="sm_90"):
        comments = ["block: 128"] + G["in_lines"](small) + ["out: u32 8"]
        G["write_case"](name, comments, hload + instr, target)
    # words 0-3 start as zeros (bf16 0xdede is -8e18: small adds vanish)
    zero4 = ("   setp.eq.u32 %p4, %r1, 0;\n" + "".join("   @%%p4 st.global.u32 [%%rd2+%d], 0;\n" % (4 * k)
                                                  for k in range(4)) + "   bar.sync 0;\n")
    hcase("atom16_global_add_f16", zero4 + "   atom.global.add.noftz.f16 %h3, [%rd2], %h1;\n"
          "   red.global.add.noftz.f16 [%rd2+2], %h1;\n   atom.global.add.noftz.f16x2 %r5, [%rd2+4], %r3;\n"
          "   cvta.global.u64 %rd7, %rd2;\n   atom.add.noftz.f16 %h3, [%rd7+10], %h1;\n"
          "   red.global.add.noftz.f16x2 [%rd2+12], %r3;\n")
    hcase("atom16_global_add_bf16", zero4 + "   atom.global.add.noftz.bf16 %h3, [%rd2], %h2;\n"
          "   red.global.add.noftz.bf16 [%rd2+2], %h2;\n   atom.global.add.noftz.bf16x2 %r5, [%rd2+4], %r4;\n"
          "   cvta.global.u64 %rd7, %rd2;\n   atom.add.noftz.bf16 %h3, [%rd7+10], %h2;\n"
          "   red.global.add.noftz.bf16x2 [%rd2+12], %r4;\n")
    hcase("atom16_cas_b16", "   mov.b16 %h4, 0xdede;\n   atom.global.cas.b16 %h3, [%rd2], %h4, 0x1234;\n"
          "   setp.eq.b16 %p1, %h3, %h4;\n   selp.u32 %r5, 1, 0, %p1;\n   red.global.add.u32 [%rd2+4], %r5;\n"
          "   atom.global.cas.b16 %h3, [%rd2+10], 0x5555, 0x1234;\n   cvt.u32.u16 %r6, %h3;\n"
          "   red.global.add.u32 [%rd2+12], %r6;\n   .shared .align 4 .b32 sh;\n   setp.eq.u32 %p2, %r1, 0;\n"
          "   @%p2 st.shared.u32 [sh], 0x77770000;\n   bar.sync 0;\n   atom.shared.cas.b16 %h3, [sh+2], 0x7777, 0x4321;\n"
          "   setp.eq.b16 %p3, %h3, 0x7777;\n   selp.u32 %r5, 1, 0, %p3;\n   red.global.add.u32 [%rd2+16], %r5;\n"
          "   atom.shared.add.noftz.f16 %h3, [sh], %h1;\n   bar.sync 0;\n   ld.shared.u32 %r6, [sh];\n"
          "   @%p2 st.global.u32 [%rd2+20], %r6;\n")
    hcase("atom16_shared_add", "   .shared .align 4 .b32 hs[3];\n   setp.eq.u32 %p2, %r1, 0;\n"
          "   @%p2 st.shared.u32 [hs], 0;\n   @%p2 st.shared.u32 [hs+4], 0x3c003c00;\n   @%p2 st.shared.u32 [hs+8], 0;\n"
          "   bar.sync 0;\n   atom.shared.add.noftz.f16 %h3, [hs], %h1;\n   atom.shared.add.noftz.bf16 %h3, [hs+2], %h2;\n"
          "   atom.shared.add.noftz.f16x2 %r5, [hs+4], %r3;\n   mov.u64 %rd7, hs;\n   cvta.shared.u64 %rd8, %rd7;\n"
          "   atom.add.noftz.bf16x2 %r5, [%rd8+8], %r4;\n   bar.sync 0;\n   @!%p2 bra DONE;\n"
          + "".join("   ld.shared.u32 %%r6, [hs+%d];\n   st.global.u32 [%%rd2+%d], %%r6;\n" % (4 * k, 4 * k)
                    for k in range(3)) + "DONE:\n")
    # f16/bf16 adds on edge values: a thread per half, both halves of each
    # word in flight at once; the new value and the returned old one
    H = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7d01,
         0x3555, 0x1400, 0xfbff]
    hp = [(a, b) for a in H for b in H]
    words = [a | (b << 16) for a, b in hp]
    def h_edge(name, op, target):
        body = ("   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd4, %rd1, %rd3;\n   ld.global.u32 %r2, [%rd4];\n"
                "   mov.b32 {%h1, %h2}, %r2;\n   mul.wide.u32 %rd5, %r1, 2;\n   add.s64 %rd6, %rd2, %rd5;\n"
                "   st.global.u16 [%rd6], %h1;\n   bar.sync 0;\n   atom.global.add.noftz.OP %h3, [%rd6], %h2;\n"
                "   st.global.u16 [%rd6+512], %h3;\n").replace("OP", op)
        comments = ["block: 256"] + G["in_lines"](words) + ["out: u32 256"]
        G["write_case"](name, comments, body, target)
    h_edge("atom16_global_add_f16_edges", "f16", "sm_70")
    h_edge("atom16_global_add_bf16_edges", "bf16", "sm_90")

def memory_cases():
    words = list(range(1, 65))
    def mcase(name, body, n, decls="", out=64, data=words, target="sm_75"):
        comments = ["block: %s" % n] + G["in_lines"](data) + ["out: u32 %d" % out]
        G["write_case"](name, comments, body, target, decls)
    mcase("ld_st_v4_u32", "   mul.wide.u32 %rd3, %r1, 16;\n   add.s64 %rd4, %rd1, %rd3;\n"
          "   ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n   add.s64 %rd6, %rd2, %rd3;\n"
          "   st.global.v4.u32 [%rd6], {%r5, %r4, %r3, %r2};\n", 16)
    mcase("ld_st_v2_u64", "   mul.wide.u32 %rd3, %r1, 16;\n   add.s64 %rd4, %rd1, %rd3;\n"
          "   ld.global.v2.u64 {%rd7, %rd8}, [%rd4];\n   add.s64 %rd6, %rd2, %rd3;\n"
          "   st.global.v2.u64 [%rd6], {%rd8, %rd7};\n", 16)
    mcase("ld_global_nc_u8_s8", "   cvt.u64.u32 %rd3, %r1;\n   add.s64 %rd4, %rd1, %rd3;\n"
          "   ld.global.nc.u8 %r2, [%rd4];\n   ld.global.nc.s8 %r3, [%rd4+128];\n   xor.b32 %r10, %r2, %r3;\n"
          "   mul.wide.u32 %rd5, %r1, 4;\n   add.s64 %rd6, %rd2, %rd5;\n   st.global.u32 [%rd6], %r10;\n", 64,
          data=[(k * 0x9e3779b9) & 0xffffffff for k in range(64)])
    mcase("local_array_generic", "   .local .align 4 .b8 buf[64];\n   mov.u64 %rd7, buf;\n   cvta.local.u64 %rd8, %rd7;\n"
          "   mov.u32 %r5, 0;\nL0:\n   mul.wide.u32 %rd3, %r5, 4;\n   add.s64 %rd4, %rd8, %rd3;\n"
          "   add.u32 %r6, %r5, %r1;\n   st.u32 [%rd4], %r6;\n   add.u32 %r5, %r5, 1;\n   setp.lt.u32 %p1, %r5, 16;\n"
          "   @%p1 bra L0;\n   and.b32 %r7, %r1, 15;\n   mul.wide.u32 %rd3, %r7, 4;\n   add.s64 %rd4, %rd7, %rd3;\n"
          "   ld.local.u32 %r10, [%rd4];\n" + G["STORE32"], 32)
    mcase("shared_generic_roundtrip", "   .shared .align 4 .b8 sm[256];\n   mov.u64 %rd7, sm;\n"
          "   cvta.shared.u64 %rd8, %rd7;\n   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd4, %rd8, %rd3;\n"
          "   st.u32 [%rd4], %r1;\n   ld.u32 %r10, [%rd4];\n   cvta.to.shared.u64 %rd9, %rd4;\n"
          "   add.s64 %rd10, %rd7, %rd3;\n   setp.eq.u64 %p1, %rd9, %rd10;\n   selp.u32 %r11, 0x100, 0, %p1;\n"
          "   add.u32 %r10, %r10, %r11;\n" + G["STORE32"], 32, out=32)
    mcase("isspacep", "   .shared .align 4 .b32 s;\n   mov.u64 %rd7, s;\n   cvta.shared.u64 %rd8, %rd7;\n"
          "   isspacep.shared %p1, %rd8;\n   isspacep.global %p2, %rd2;\n   isspacep.shared %p3, %rd2;\n"
          "   selp.u32 %r5, 1, 0, %p1;\n   selp.u32 %r6, 2, 0, %p2;\n   selp.u32 %r7, 4, 0, %p3;\n"
          "   or.b32 %r10, %r5, %r6;\n   or.b32 %r10, %r10, %r7;\n" + G["STORE32"], 1, out=1)
    mcase("global_var_init", "   mul.wide.u32 %rd3, %r1, 4;\n   mov.u64 %rd7, table;\n   add.s64 %rd4, %rd7, %rd3;\n"
          "   ld.global.u32 %r10, [%rd4];\n   ld.const.u32 %r11, [ctab+8];\n   add.u32 %r10, %r10, %r11;\n"
          + G["STORE32"], 8, out=8,
          decls=".global .align 4 .u32 table[8] = {1, 2, 3, 0x80000000, 5, 6, 7, 0xffffffff};\n"
                ".const .align 4 .u32 ctab[4] = {10, 20, 30, 40};\n")
    mcase("global_var_pointer_init", "   ld.global.u64 %rd7, [ptr];\n   ld.u32 %r10, [%rd7+4];\n" + G["STORE32"], 1,
          out=1, decls=".global .align 4 .u32 arr[2] = {11, 22};\n.global .align 8 .u64 ptr = generic(arr);\n")
    mcase("sreg_3d", "   mov.u32 %r2, %tid.x;\n   mov.u32 %r3, %tid.y;\n   mov.u32 %r4, %tid.z;\n"
          "   mov.u32 %r5, %ntid.x;\n   mov.u32 %r6, %ntid.y;\n   mad.lo.u32 %r7, %r4, %r6, %r3;\n"
          "   mad.lo.u32 %r1, %r7, %r5, %r2;\n   mov.u32 %r8, %ntid.z;\n   mad.lo.u32 %r10, %r8, 10000, %r1;\n"
          + G["STORE32"], "4 3 2", out=24)
    mcase("brx_idx", "   and.b32 %r5, %r1, 3;\n   ts: .branchtargets T0, T1, T2, T3;\n   brx.idx %r5, ts;\n"
          "T0:\n   mov.u32 %r10, 100;\n   bra.uni E;\nT1:\n   mov.u32 %r10, 101;\n   bra.uni E;\n"
          "T2:\n   mov.u32 %r10, 102;\n   bra.uni E;\nT3:\n   mov.u32 %r10, 103;\nE:\n" + G["STORE32"], 8, out=8)
    # guarded brx inside a loop: backward and forward targets, a one-entry list
    mcase("brx_idx_guarded_loop", "   mov.u32 %r10, 0;\n   mov.u32 %r6, 0;\n   ts: .branchtargets A, B, C;\n"
          "   one: .branchtargets D;\nA:\n   add.u32 %r10, %r10, 1;\n   add.u32 %r6, %r6, 1;\n"
          "   add.u32 %r5, %r6, %r1;\n   rem.u32 %r5, %r5, 3;\n   setp.lt.u32 %p1, %r6, %r1;\n   @%p1 brx.idx %r5, ts;\n"
          "   bra.uni D;\nB:\n   add.u32 %r10, %r10, 10;\n   brx.idx 0, one;\nC:\n   add.u32 %r10, %r10, 100;\n"
          "   bra.uni A;\nD:\n   shl.b32 %r7, %r6, 16;\n   add.u32 %r10, %r10, %r7;\n" + G["STORE32"], 16, out=16)
    mcase("call_func", "   .param .b32 p0;\n   .param .b32 r0;\n   st.param.b32 [p0], %r1;\n"
          "   call.uni (r0), twice, (p0);\n   ld.param.b32 %r10, [r0];\n" + G["STORE32"], 8, out=8,
          decls=".func (.param .b32 out) twice(.param .b32 in)\n{\n   .reg .b32 %t<2>;\n"
                "   ld.param.b32 %t0, [in];\n   add.u32 %t1, %t0, %t0;\n   st.param.b32 [out], %t1;\n   ret;\n}\n")

def call_cases():
    """Calls of .func (.param and .reg arguments, structures, several
    returns, nested calls with pointers to the caller's locals, exit inside
    a callee, guarded calls), isspacep on every space, clocks."""
    words = [(k * 0x9e3779b9 + 0x55) & 0xffffffff for k in range(64)]
    def ccase(name, body, n, decls, out=None):
        comments = ["block: %d" % n] + G["in_lines"](words) + ["out: u32 %d" % (out or n)]
        G["write_case"](name, comments, G["load_operands"](1) + body, "sm_75", decls)
    ccase("call_reg_args", "   call (%r10), add3, (%r1, %r2, 7);\n   call (%r11), add3, (%r10, %r10, %r1);\n"
          "   xor.b32 %r10, %r10, %r11;\n" + G["STORE32"], 32,
          ".func (.reg .b32 r) add3(.reg .b32 a, .reg .b32 b, .reg .b32 c)\n{\n   add.u32 r, a, b;\n"
          "   add.u32 r, r, c;\n   shl.b32 r, r, 1;\n   ret;\n}\n")
    # as nvcc passes a struct by value and returns one (ptxas allows one
    # .param return; .param stores must not overlap: ptxas does not order them)
    ccase("call_param_struct", "   {\n   .param .align 8 .b8 p0[16];\n   st.param.b32 [p0], %r1;\n"
          "   st.param.b32 [p0+4], %r2;\n   st.param.b8 [p0+8], 200;\n"
          "   st.param.b8 [p0+9], %r1;\n   cvt.u16.u32 %h1, %r2;\n   st.param.b16 [p0+10], %h1;\n   st.param.b32 [p0+12], %r2;\n"
          "   .param .b32 p1;\n   st.param.b32 [p1], 100;\n"
          "   .param .align 8 .b8 r0[16];\n   call.uni (r0), swap, (p0, p1);\n"
          "   ld.param.b32 %r5, [r0];\n   ld.param.b32 %r6, [r0+4];\n   ld.param.b64 %rd8, [r0+8];\n   }\n"
          "   cvt.u32.u64 %r7, %rd8;\n   shr.u64 %rd8, %rd8, 32;\n   cvt.u32.u64 %r8, %rd8;\n   xor.b32 %r10, %r5, %r6;\n"
          "   add.u32 %r10, %r10, %r7;\n   xor.b32 %r10, %r10, %r8;\n" + G["STORE32"], 32,
          ".func (.param .align 8 .b8 out[16]) swap(.param .align 8 .b8 s[16], .param .b32 k)\n{\n"
          "   .reg .b32 %t<8>;\n   .reg .b64 %w<4>;\n   ld.param.b32 %t0, [s];\n   ld.param.b32 %t1, [s+4];\n"
          "   ld.param.u8 %t2, [s+9];\n   ld.param.b64 %w0, [s+8];\n   ld.param.b32 %t3, [k];\n"
          "   add.u32 %t4, %t1, %t3;\n   mul.lo.u32 %t5, %t0, %t2;\n   st.param.b32 [out], %t4;\n"
          "   st.param.b32 [out+4], %t5;\n   mul.wide.u32 %w1, %t0, %t3;\n   add.s64 %w1, %w1, %w0;\n"
          "   st.param.b64 [out+8], %w1;\n   ret;\n}\n")
    # a callee's callee writes through a generic pointer to the kernel's
    # local array; a module-scope shared array used by kernel and callee
    ccase("call_nested_pointers", "   .local .align 4 .b8 buf[16];\n   mov.u64 %rd7, buf;\n   cvta.local.u64 %rd8, %rd7;\n"
          "   st.local.u32 [%rd7], %r2;\n   st.local.u32 [%rd7+4], %r1;\n   mov.u64 %rd9, sh;\n"
          "   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd9, %rd9, %rd3;\n   st.shared.u32 [%rd9], 1000;\n"
          "   { .param .b64 a0;\n   st.param.b64 [a0], %rd8;\n   .param .b32 a1;\n   st.param.b32 [a1], %r1;\n"
          "   call.uni outer, (a0, a1);\n   }\n   ld.local.u32 %r5, [%rd7];\n   ld.local.u32 %r6, [%rd7+4];\n"
          "   ld.local.u32 %r7, [%rd7+8];\n   ld.shared.u32 %r8, [%rd9];\n   add.u32 %r10, %r5, %r6;\n"
          "   xor.b32 %r10, %r10, %r7;\n   add.u32 %r10, %r10, %r8;\n" + G["STORE32"], 32,
          ".shared .align 4 .b32 sh[32];\n"
          ".func inner(.param .b64 p, .param .b32 t)\n{\n   .reg .b32 %q<4>;\n   .reg .b64 %e<4>;\n"
          "   ld.param.b64 %e0, [p];\n   ld.param.b32 %q0, [t];\n   ld.u32 %q1, [%e0];\n   mul.lo.u32 %q1, %q1, 3;\n"
          "   st.u32 [%e0+8], %q1;\n   mov.u64 %e1, sh;\n   mul.wide.u32 %e2, %q0, 4;\n   add.s64 %e1, %e1, %e2;\n"
          "   ld.shared.u32 %q2, [%e1];\n   add.u32 %q2, %q2, %q0;\n   st.shared.u32 [%e1], %q2;\n   ret;\n}\n"
          ".func outer(.param .b64 p, .param .b32 t)\n{\n   .local .align 4 .b8 mine[8];\n   .reg .b32 %q<4>;\n"
          "   .reg .b64 %e<4>;\n   ld.param.b64 %e0, [p];\n   ld.param.b32 %q0, [t];\n   mov.u64 %e1, mine;\n"
          "   st.local.u32 [%e1], %q0;\n   ld.u32 %q1, [%e0+4];\n   add.u32 %q1, %q1, 5;\n   st.u32 [%e0+4], %q1;\n"
          "   { .param .b64 b0;\n   st.param.b64 [b0], %e0;\n   .param .b32 b1;\n   st.param.b32 [b1], %q0;\n"
          "   call.uni inner, (b0, b1);\n   }\n   ld.local.u32 %q2, [%e1];\n   ld.u32 %q3, [%e0];\n"
          "   add.u32 %q3, %q3, %q2;\n   st.u32 [%e0], %q3;\n   ret;\n}\n")
    # exit inside a callee ends the thread: the caller does not go on
    ccase("call_exit_in_func", "   call (%r10), maybe_exit, (%r1, %r2);\n" + G["STORE32"], 32,
          ".func (.reg .b32 r) maybe_exit(.reg .b32 t, .reg .b32 v)\n{\n   .reg .pred %e;\n   .reg .b32 %m;\n"
          "   rem.u32 %m, t, 3;\n   setp.eq.u32 %e, %m, 0;\n   @%e exit;\n   add.u32 r, v, t;\n   ret;\n}\n")
    # guarded calls: the destination keeps its value where the guard fails
    ccase("call_guarded", "   and.b32 %r5, %r1, 1;\n   setp.eq.u32 %p1, %r5, 0;\n   mov.u32 %r10, 0x77;\n"
          "   @%p1 call (%r10), sq, (%r2);\n   .param .b32 q;\n   @!%p1 call.uni (q), sqp, (%r1);\n"
          "   ld.param.b32 %r11, [q];\n   @!%p1 mov.u32 %r10, %r11;\n" + G["STORE32"], 32,
          ".func (.reg .b32 r) sq(.reg .b32 a)\n{\n   mul.lo.u32 r, a, a;\n   ret;\n}\n"
          ".func (.param .b32 r) sqp(.param .b32 a)\n{\n   .reg .b32 %s<2>;\n   ld.param.b32 %s0, [a];\n"
          "   mul.lo.u32 %s1, %s0, %s0;\n   add.u32 %s1, %s1, 1;\n   st.param.b32 [r], %s1;\n   ret;\n}\n")
    # isspacep of addresses in every space; bit k of the word per space test
    spaces = ["global", "shared", "local", "const", "param"]
    def probe(reg, base):
        s = ""
        for k, sp in enumerate(spaces):
            s += "   isspacep.%s %%p1, %s;\n   selp.u32 %%r5, %d, 0, %%p1;\n   or.b32 %%r%d, %%r%d, %%r5;\n" % (
                sp, reg, 1 << k, base, base)
        return s
    isp = ("   .shared .align 4 .b32 ss;\n   .local .align 4 .b32 ll;\n   mov.u32 %r10, 0;\n   mov.u32 %r11, 0;\n"
           "   mov.u32 %r12, 0;\n   mov.u32 %r13, 0;\n   mov.u64 %rd7, ss;\n   cvta.shared.u64 %rd7, %rd7;\n"
           "   mov.u64 %rd8, ll;\n   cvta.local.u64 %rd8, %rd8;\n   mov.u64 %rd9, cc;\n   cvta.const.u64 %rd9, %rd9;\n"
           "   mov.u64 %rd10, gg;\n   cvta.global.u64 %rd10, %rd10;\n"
           + probe("%rd2", 10) + probe("%rd7", 11) + probe("%rd8", 12) + probe("%rd9", 13)
           + "   shl.b32 %r11, %r11, 8;\n   shl.b32 %r12, %r12, 16;\n   shl.b32 %r13, %r13, 24;\n"
           "   or.b32 %r10, %r10, %r11;\n   or.b32 %r10, %r10, %r12;\n   or.b32 %r10, %r10, %r13;\n" + G["STORE32"]
           + "   mov.u32 %r10, 0;\n" + probe("%rd10", 10) + "   st.global.u32 [%rd6+4], %r10;\n")
    ccase("isspacep_spaces", isp, 1, ".const .align 4 .u32 cc[2] = {1, 2};\n.global .align 4 .u32 gg[2];\n", out=2)
    # clocks increase, %smid < %nsmid, %gridid is the same twice
    ccase("sreg_clock_order", "   mov.u64 %rd7, %clock64;\n   mov.u32 %r5, %clock;\n   add.u32 %r6, %r2, 1;\n"
          "   mov.u64 %rd8, %clock64;\n   mov.u32 %r7, %clock;\n   mov.u64 %rd9, %globaltimer;\n   mov.u64 %rd10, %globaltimer;\n"
          "   setp.gt.u64 %p1, %rd8, %rd7;\n   selp.u32 %r10, 1, 0, %p1;\n   sub.u32 %r8, %r7, %r5;\n"
          "   setp.ne.u32 %p2, %r8, 0;\n   setp.lt.u32 %p3, %r8, 0x40000000;\n   and.pred %p2, %p2, %p3;\n"
          "   selp.u32 %r9, 2, 0, %p2;\n   or.b32 %r10, %r10, %r9;\n   setp.ge.u64 %p4, %rd10, %rd9;\n"
          "   selp.u32 %r9, 4, 0, %p4;\n   or.b32 %r10, %r10, %r9;\n   mov.u32 %r11, %smid;\n   mov.u32 %r12, %nsmid;\n"
          "   setp.lt.u32 %p5, %r11, %r12;\n   selp.u32 %r9, 8, 0, %p5;\n   or.b32 %r10, %r10, %r9;\n"
          "   mov.u64 %rd11, %gridid;\n   mov.u64 %rd12, %gridid;\n   setp.eq.u64 %p6, %rd11, %rd12;\n"
          "   selp.u32 %r9, 16, 0, %p6;\n   or.b32 %r10, %r10, %r9;\n" + G["STORE32"], 64, "")

def irreducible_cases():
    """Loops entered at more than one block (made reducible by node splitting)."""
    def ccase(name, body, n):
        G["write_case"](name, ["block: %d" % n, "in: u32 0", "out: u32 %d" % n], body)
    ccase("irreducible_two_entry", "   mov.u32 %r10, 7;\n   mov.u32 %r6, 0;\n   mov.u32 %r11, 0;\n"
          "   and.b32 %r5, %r1, 1;\n   setp.eq.u32 %p1, %r5, 0;\n   @%p1 bra B;\n"
          "A:\n   mad.lo.u32 %r10, %r10, 3, %r6;\n   add.u32 %r6, %r6, 1;\n   setp.gt.u32 %p2, %r6, %r1;\n"
          "   @%p2 bra E;\nB:\n   xor.b32 %r11, %r10, %r6;\n   add.u32 %r10, %r11, 5;\n   add.u32 %r6, %r6, 2;\n"
          "   setp.lt.u32 %p3, %r6, %r1;\n   @%p3 bra A;\nE:\n   add.u32 %r10, %r10, %r11;\n" + G["STORE32"], 32)
    ccase("irreducible_three_entry_brx", "   mov.u32 %r10, 1;\n   mov.u32 %r6, 0;\n   mov.u32 %r11, 0;\n"
          "   rem.u32 %r5, %r1, 3;\n   ts: .branchtargets X, Y, Z;\n   brx.idx %r5, ts;\n"
          "X:\n   add.u32 %r10, %r10, 3;\n   add.u32 %r6, %r6, 1;\n"
          "Y:\n   shl.b32 %r11, %r10, 1;\n   xor.b32 %r10, %r10, %r11;\n   add.u32 %r6, %r6, 1;\n"
          "   setp.ge.u32 %p1, %r6, %r1;\n   @%p1 bra E;\n"
          "Z:\n   add.u32 %r10, %r10, %r6;\n   setp.lt.u32 %p2, %r6, 40;\n   @%p2 bra X;\n"
          "E:\n   add.u32 %r10, %r10, %r11;\n" + G["STORE32"], 64)

def form_cases():
    """Instruction forms real PTX carries that no other case covered
    (docs/ptx-coverage.md listed them as unverified)."""
    U32_SMALL_ = G["U32_SMALL"]
    S16 = [0, 1, 0x7fff, 0x8000, 0xffff, 0xfff9, 0x1234, 0x8001]
    pre16 = "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n"
    def cmp_bits(ty, cmps, a, b):
        s = "   mov.u32 %r10, 0;\n"
        for k, c in enumerate(cmps):
            s += "   setp.%s.%s %%p1, %s, %s;\n   selp.u32 %%r5, %d, 0, %%p1;\n   or.b32 %%r10, %%r10, %%r5;\n" % (c, ty, a, b, 1 << k)
        return s
    for ty, cmps in [("s16", ["eq", "ne", "lt", "le", "gt", "ge"]), ("u16", ["lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]),
                     ("b16", ["eq", "ne"])]:
        G["op_case"]("setp_all_%s" % ty, pre16 + cmp_bits(ty, cmps, "%h1", "%h2"), S16, 2)
    U64 = [0, 1, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0x100000000, 0xffffffff, 0x8000000000000001]
    for ty, cmps in [("s64", ["eq", "ne", "lt", "le", "gt", "ge"]), ("u64", ["lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"])]:
        op64("setp_all_%s" % ty, cmp_bits(ty, cmps, "%x0", "%x1"), U64, 2, out32=True)
    # setp combined with a predicate (.and), selp of every width
    G["op_case"]("setp_and_forms", "   setp.ne.u32 %p2, %r4, 0;\n   setp.eq.and.u32 %p1, %r2, %r3, %p2;\n"
                 "   setp.lt.and.s32 %p3, %r2, %r3, !%p2;\n   selp.u32 %r10, 1, 0, %p1;\n   selp.u32 %r5, 2, 0, %p3;\n"
                 "   or.b32 %r10, %r10, %r5;\n", [0, 1, 0x80000000, 0xffffffff], 3)
    G["op_case"]("selp_forms", pre16 + "   setp.lt.u32 %p1, %r2, %r3;\n   selp.b16 %h3, %h1, %h2, %p1;\n"
                 "   selp.u16 %h4, %h2, 7, %p1;\n   cvt.u32.u16 %r5, %h3;\n   cvt.u32.u16 %r6, %h4;\n"
                 "   shl.b32 %r6, %r6, 16;\n   or.b32 %r10, %r5, %r6;\n   mov.b32 %f1, %r2;\n   mov.b32 %f2, %r3;\n"
                 "   selp.f32 %f3, %f1, %f2, %p1;\n   mov.b32 %r7, %f3;\n   xor.b32 %r10, %r10, %r7;\n"
                 "   cvt.u64.u32 %rd7, %r2;\n   cvt.s64.s32 %rd8, %r3;\n   selp.b64 %rd9, %rd7, %rd8, %p1;\n"
                 "   selp.s64 %rd10, %rd8, -5, %p1;\n   selp.u64 %rd11, %rd9, %rd10, %p1;\n   add.s64 %rd9, %rd9, %rd10;\n"
                 "   add.s64 %rd9, %rd9, %rd11;\n   cvt.u32.u64 %r8, %rd9;\n   shr.u64 %rd9, %rd9, 32;\n"
                 "   cvt.u32.u64 %r9, %rd9;\n   add.u32 %r10, %r10, %r8;\n   xor.b32 %r10, %r10, %r9;\n", S16 + [0x80000000, 0xfffffff9], 2)
    G["op_case"]("mov_forms", "   .reg .f64 %d<3>;\n   mov.b32 %f1, %r2;\n   mov.f32 %f2, %f1;\n   mov.b32 %r5, %f2;\n"
                 "   mov.s32 %r6, %r3;\n   cvt.u16.u32 %h1, %r2;\n   mov.b16 %h2, %h1;\n   mov.u16 %h3, %h2;\n"
                 "   cvt.u32.u16 %r7, %h3;\n   mov.b64 %rd7, {%r2, %r3};\n   mov.s64 %rd8, %rd7;\n   mov.b64 %d1, %rd8;\n"
                 "   mov.f64 %d2, %d1;\n   mov.b64 %rd9, %d2;\n   mov.b64 {%r8, %r9}, %rd9;\n   setp.lt.u32 %p1, %r2, %r3;\n"
                 "   mov.pred %p2, %p1;\n   selp.u32 %r4, 0x10000, 0, %p2;\n   add.u32 %r10, %r5, %r6;\n"
                 "   xor.b32 %r10, %r10, %r7;\n   add.u32 %r10, %r10, %r8;\n   xor.b32 %r10, %r10, %r9;\n"
                 "   add.u32 %r10, %r10, %r4;\n", U32_SMALL_, 2)
    G["op_case"]("cvt_int_narrow_forms", "   cvt.u8.u32 %r5, %r2;\n   cvt.u16.u32 %h1, %r2;\n"
                 "   cvt.s16.s8 %h2, %h1;\n   cvt.u16.u8 %h3, %h1;\n   cvt.u64.u16 %rd7, %h1;\n   cvt.u64.u32 %rd8, %r3;\n"
                 "   shl.b64 %rd8, %rd8, 16;\n   or.b64 %rd8, %rd8, %rd7;\n   cvt.u16.u64 %h4, %rd8;\n"
                 "   cvt.u32.u16 %r6, %h2;\n   cvt.u32.u16 %r7, %h3;\n   cvt.u32.u16 %r8, %h4;\n   cvt.u32.u64 %r9, %rd7;\n"
                 "   shl.b32 %r6, %r6, 16;\n   or.b32 %r10, %r6, %r7;\n   xor.b32 %r10, %r10, %r8;\n   add.u32 %r10, %r10, %r9;\n"
                 "   add.u32 %r10, %r10, %r5;\n", U32_SMALL_ + [0x80, 0x7f, 0xff80, 0x1ff], 2)
    G["op_case"]("int_signed_forms", "   add.s32 %r5, %r2, %r3;\n   sub.s32 %r6, %r2, %r3;\n   mul.lo.s32 %r7, %r2, %r3;\n"
                 "   mad.lo.s32 %r8, %r2, %r3, %r4;\n   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n"
                 "   add.s16 %h3, %h1, %h2;\n   cvt.u32.u16 %r9, %h3;\n   mul.wide.u16 %r11, %h1, %h2;\n"
                 "   mad.wide.u32 %rd7, %r2, %r3, %rd1;\n   sub.s64 %rd7, %rd7, %rd1;\n   cvt.s64.s32 %rd8, %r4;\n"
                 "   sub.s64 %rd7, %rd7, %rd8;\n   shr.u64 %rd9, %rd7, 29;\n   cvt.u32.u64 %r12, %rd9;\n"
                 "   xor.b32 %r10, %r5, %r6;\n   add.u32 %r10, %r10, %r7;\n   xor.b32 %r10, %r10, %r8;\n"
                 "   add.u32 %r10, %r10, %r9;\n   xor.b32 %r10, %r10, %r11;\n   add.u32 %r10, %r10, %r12;\n",
                 U32_SMALL_, 3)
    G["op_case"]("shr_b_forms", "   shr.b32 %r5, %r2, %r3;\n   cvt.u64.u32 %rd7, %r2;\n   shl.b64 %rd7, %rd7, 32;\n"
                 "   or.b64 %rd7, %rd7, 0x80000001;\n   shr.b64 %rd8, %rd7, %r3;\n   cvt.u32.u64 %r6, %rd8;\n"
                 "   shr.u64 %rd8, %rd8, 32;\n   cvt.u32.u64 %r7, %rd8;\n   xor.b32 %r10, %r5, %r6;\n   add.u32 %r10, %r10, %r7;\n",
                 None, 2, combos=[(a, b) for a in [0x80000000, 0xffffffff, 0x12345678] for b in [0, 1, 31, 32, 33, 63, 64, 100]])
    op64("bfi_b64", "   cvt.u32.u64 %r3, %x2;\n   shr.u64 %x3, %x2, 32;\n   cvt.u32.u64 %r4, %x3;\n"
         "   bfi.b64 %x5, %x0, %x1, %r3, %r4;\n",
         combos=[(a, b, p | (l << 32)) for a in [0xffffffffffffffff, 0x123456789abcdef0] for b in [0, 0x8000000000000001]
                 for p in [0, 5, 63, 64] for l in [0, 1, 8, 64, 70]], nops=3)
    op2("madc_sub_cc_forms", "   mad.lo.cc.u32 %r10, %r2, %r3, %r4;\n   madc.hi.cc.u32 %r11, %r2, %r3, %r4;\n"
        "   madc.lo.cc.u32 %r5, %r3, %r4, %r2;\n   sub.cc.u32 %r6, %r2, %r3;\n   subc.cc.u32 %r7, %r4, %r2;\n"
        "   addc.u32 %r8, 0, 0;\n   add.u32 %r10, %r10, %r5;\n   xor.b32 %r11, %r11, %r6;\n   add.u32 %r11, %r11, %r7;\n"
        "   add.u32 %r11, %r11, %r8;\n", U32_SMALL_, 3)
    words = [(k * 0x9e3779b9 + 0x7f) & 0xffffffff for k in range(128)]
    def mcase(name, body, n, out=None, data=words, decls=""):
        comments = ["block: %d" % n] + G["in_lines"](data) + ["out: u32 %d" % (out or n)]
        G["write_case"](name, comments, body, "sm_75", decls)
    # shared memory in every width and signedness; each thread its own 16-byte slot
    mcase("shared_widths", "   .shared .align 16 .b8 sm[512];\n" + G["load_operands"](4) +
          "   mov.u64 %rd7, sm;\n   mul.wide.u32 %rd8, %r1, 16;\n   add.s64 %rd7, %rd7, %rd8;\n"
          "   st.shared.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};\n   ld.shared.v2.u32 {%r6, %r7}, [%rd7+8];\n"
          "   ld.shared.s16 %r8, [%rd7+2];\n   ld.shared.u16 %r9, [%rd7+6];\n   ld.shared.u8 %r11, [%rd7+9];\n"
          "   ld.shared.s32 %r12, [%rd7+12];\n   ld.shared.u64 %rd9, [%rd7];\n   ld.shared.v4.u8 {%r13, %r14, %r15, %r0}, [%rd7+4];\n"
          "   mov.b32 %f1, %r6;\n   st.shared.f32 [%rd7+4], %f1;\n   ld.shared.f32 %f2, [%rd7+4];\n   mov.b32 %r4, %f2;\n"
          "   st.shared.u16 [%rd7], %r8;\n   st.shared.u8 [%rd7+3], %r11;\n   ld.shared.v4.f32 {%f3, %f4, %f5, %f6}, [%rd7];\n"
          "   mov.b32 %r5, %f3;\n   st.shared.v2.u32 [%rd7+8], {%r13, %r14};\n   ld.shared.v2.u64 {%rd10, %rd11}, [%rd7];\n"
          "   st.shared.u64 [%rd7], %rd11;\n   ld.shared.u32 %r3, [%rd7+4];\n   xor.b64 %rd9, %rd9, %rd10;\n"
          "   cvt.u32.u64 %r2, %rd9;\n   add.u32 %r10, %r6, %r7;\n   xor.b32 %r10, %r10, %r8;\n   add.u32 %r10, %r10, %r9;\n"
          "   xor.b32 %r10, %r10, %r11;\n   add.u32 %r10, %r10, %r12;\n   xor.b32 %r10, %r10, %r13;\n   add.u32 %r10, %r10, %r14;\n"
          "   xor.b32 %r10, %r10, %r15;\n   add.u32 %r10, %r10, %r0;\n   xor.b32 %r10, %r10, %r4;\n   add.u32 %r10, %r10, %r5;\n"
          "   xor.b32 %r10, %r10, %r3;\n   add.u32 %r10, %r10, %r2;\n" + G["STORE32"], 32)
    mcase("local_widths", "   .local .align 16 .b8 lb[32];\n" + G["load_operands"](4) +
          "   mov.u64 %rd7, lb;\n   st.local.v4.u32 [%rd7], {%r2, %r3, %r4, %r5};\n   st.local.v2.u32 [%rd7+16], {%r5, %r2};\n"
          "   st.local.u32 [%rd7+24], %r3;\n   ld.local.u64 %rd8, [%rd7+8];\n   st.local.u64 [%rd7+24], %rd8;\n"
          "   st.local.v4.u8 [%rd7+28], {%r2, %r3, %r4, %r5};\n   .reg .f64 %d<2>;\n   ld.local.f64 %d1, [%rd7+16];\n"
          "   st.local.f64 [%rd7], %d1;\n   ld.local.v4.u32 {%r6, %r7, %r8, %r9}, [%rd7];\n   ld.local.v4.u32 {%r11, %r12, %r13, %r14}, [%rd7+16];\n"
          "   add.u32 %r10, %r6, %r7;\n   xor.b32 %r10, %r10, %r8;\n   add.u32 %r10, %r10, %r9;\n   xor.b32 %r10, %r10, %r11;\n"
          "   add.u32 %r10, %r10, %r12;\n   xor.b32 %r10, %r10, %r13;\n   add.u32 %r10, %r10, %r14;\n" + G["STORE32"], 32)
    mcase("global_widths_and_hints", G["load_operands"](2) +
          "   ld.global.s16 %r5, [%rd4+2];\n   ld.global.u16 %r6, [%rd4+6];\n   ld.global.u8 %r7, [%rd4+5];\n"
          "   ld.global.s32 %r8, [%rd4];\n   ld.global.nc.u16 %r9, [%rd4+4];\n   ld.global.nc.u32 %r11, [%rd4+4];\n"
          "   ld.global.nc.u64 %rd7, [%rd4];\n   ld.global.ca.u32 %r12, [%rd4];\n   ld.global.cs.b32 %r13, [%rd4+4];\n"
          "   ld.volatile.global.u32 %r14, [%rd4];\n   ld.global.f32 %f1, [%rd4+4];\n   mov.b32 %r15, %f1;\n"
          "   ld.global.L1::no_allocate.nc.v2.u32 {%r2, %r3}, [%rd4];\n   prefetch.global.L2 [%rd4];\n   prefetchu.L1 [%rd4];\n"
          "   cvt.u32.u64 %r4, %rd7;\n   add.u32 %r10, %r5, %r6;\n   xor.b32 %r10, %r10, %r7;\n   add.u32 %r10, %r10, %r8;\n"
          "   xor.b32 %r10, %r10, %r9;\n   add.u32 %r10, %r10, %r11;\n   xor.b32 %r10, %r10, %r12;\n   add.u32 %r10, %r10, %r13;\n"
          "   xor.b32 %r10, %r10, %r14;\n   add.u32 %r10, %r10, %r15;\n   xor.b32 %r10, %r10, %r2;\n   add.u32 %r10, %r10, %r3;\n"
          "   xor.b32 %r10, %r10, %r4;\n"
          "   mul.wide.u32 %rd5, %r1, 8;\n   add.s64 %rd6, %rd2, %rd5;\n   st.global.wb.u32 [%rd6], %r10;\n"
          "   st.volatile.global.u32 [%rd6+4], %r5;\n   st.global.u8 [%rd6+5], %r7;\n   st.global.u16 [%rd6+6], %r6;\n", 32, out=64)
    mcase("global_vector_f32_f64", "   mul.wide.u32 %rd3, %r1, 16;\n   add.s64 %rd4, %rd1, %rd3;\n"
          "   ld.global.nc.L1::no_allocate.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n   add.s64 %rd6, %rd2, %rd3;\n"
          "   st.global.v4.f32 [%rd6], {%f4, %f3, %f2, %f1};\n   .reg .f64 %d<3>;\n   ld.global.f64 %d1, [%rd4];\n"
          "   ld.global.nc.v2.f64 {%d1, %d2}, [%rd4];\n   st.global.f64 [%rd6+512], %d2;\n   ld.global.nc.v2.u64 {%rd7, %rd8}, [%rd4];\n"
          "   st.global.u64 [%rd6+520], %rd7;\n", 32, out=256)
    mcase("generic_forms", "   .shared .align 8 .b8 sg[256];\n   mov.u64 %rd7, sg;\n   cvta.shared.u64 %rd7, %rd7;\n"
          "   mul.wide.u32 %rd3, %r1, 8;\n   add.s64 %rd8, %rd7, %rd3;\n   cvta.to.global.u64 %rd9, %rd1;\n"
          "   add.s64 %rd9, %rd9, %rd3;\n   ld.u64 %rd10, [%rd9];\n   st.u64 [%rd8], %rd10;\n   ld.f32 %f1, [%rd8+4];\n"
          "   st.f32 [%rd8], %f1;\n   .reg .f64 %d<2>;\n   ld.f64 %d1, [%rd8];\n   st.f64 [%rd8], %d1;\n   ld.u32 %r10, [%rd8];\n"
          "   ld.const.u32 %r5, [cforms+4];\n   mov.u64 %rd11, cforms;\n   cvta.const.u64 %rd11, %rd11;\n   ld.u32 %r6, [%rd11+8];\n"
          "   add.u32 %r10, %r10, %r5;\n   xor.b32 %r10, %r10, %r6;\n" + G["STORE32"], 32,
          decls=".const .align 4 .u32 cforms[4] = {5, 6, 7, 8};\n")
    # exit from some threads while the others finish
    mcase("exit_early", "   and.b32 %r5, %r1, 3;\n   setp.eq.u32 %p1, %r5, 2;\n   mov.u32 %r10, %r1;\n"
          "   @%p1 bra SKIPSTORE;\n   add.u32 %r10, %r10, 1000;\n" + G["STORE32"] + "   exit;\nSKIPSTORE:\n"
          "   mul.wide.u32 %rd5, %r1, 4;\n   add.s64 %rd6, %rd2, %rd5;\n   st.global.u32 [%rd6], 7;\n   exit;\n", 32)

def misc_int_cases():
    """fns, ldu, cvt.pack, the 24-bit and sad forms not covered elsewhere."""
    U = G["U32_EDGES"]
    G["op_case"]("fns_b32", "   fns.b32 %r10, %r2, %r3, %r4;\n", None, 3,
                 combos=[(m, b, o) for m in [0, 1, 0x80000000, 0xffffffff, 0x0f0f0f0f, 0x12345678]
                         for b in [0, 1, 5, 31] for o in [1, 2, 0xffffffff, 0xfffffffe, 3]])
    G["op_case"]("mad24_hi_u32", "   mad24.hi.u32 %r10, %r2, %r3, %r4;\n", G["U32_SMALL"], 3)
    G["op_case"]("mad24_hi_sat_s32", "   mad24.hi.sat.s32 %r10, %r2, %r3, %r4;\n", G["U32_SMALL"], 3)
    G["op_case"]("mad24_lo_s32", "   mad24.lo.s32 %r10, %r2, %r3, %r4;\n", G["U32_SMALL"], 3)
    G["op_case"]("sad_u16", "   cvt.u16.u32 %h1, %r2;\n   cvt.u16.u32 %h2, %r3;\n   cvt.u16.u32 %h3, %r4;\n"
                 "   sad.u16 %h4, %h1, %h2, %h3;\n   cvt.u32.u16 %r10, %h4;\n", [0, 1, 0x7fff, 0x8000, 0xffff], 3)
    op64("sad_s64", "   sad.s64 %x5, %x0, %x1, %x2;\n", [0, 1, 0x7fffffffffffffff, 0x8000000000000000,
         0xffffffffffffffff], 3)
    packs = [0, 5, 127, 128, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff,
             0xffffff80, 0xffff8000]
    for d in ["u16", "s16"]:
        G["op_case"]("cvt_pack_sat_%s_s32" % d, "   cvt.pack.sat.%s.s32 %%r10, %%r2, %%r3;\n" % d, None, 2,
                     combos=[(a, b) for a in packs for b in [0, 0xffffff81, 300, 0x10000]])
    for d in ["u8", "s8"]:
        G["op_case"]("cvt_pack_sat_%s_s32_b32" % d, "   cvt.pack.sat.%s.s32.b32 %%r10, %%r2, %%r3, %%r4;\n" % d,
                     None, 3, combos=[(a, b, c) for a in packs for b in [0, 0xffffff81, 300]
                                      for c in [0x12345678, 0xffffffff]])
    words = [(k * 0x9e3779b9 + 0x7f) & 0xffffffff for k in range(64)]
    G["write_case"]("ldu_forms", ["block: 32"] + G["in_lines"](words) + ["out: u32 32"],
                    "   ldu.global.u32 %r5, [%rd1+8];\n   ldu.global.v2.u32 {%r6, %r7}, [%rd1+16];\n"
                    "   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd4, %rd1, %rd3;\n   ldu.global.u16 %r8, [%rd4+2];\n"
                    "   add.u32 %r10, %r5, %r6;\n   xor.b32 %r10, %r10, %r7;\n   add.u32 %r10, %r10, %r8;\n" + G["STORE32"])

def barrier_cases():
    data = [(k * 2654435761) & 0xffffffff for k in range(128)]
    body = ("   .shared .align 4 .b32 sm[128];\n   mul.wide.u32 %rd3, %r1, 4;\n   add.s64 %rd4, %rd1, %rd3;\n"
            "   ld.global.u32 %r2, [%rd4];\n   mov.u64 %rd7, sm;\n   add.s64 %rd8, %rd7, %rd3;\n"
            "   st.shared.u32 [%rd8], %r2;\n   bar.sync 0;\n   xor.b32 %r5, %r1, 127;\n   mul.wide.u32 %rd9, %r5, 4;\n"
            "   add.s64 %rd10, %rd7, %rd9;\n   ld.shared.u32 %r10, [%rd10];\n" + G["STORE32"])
    G["write_case"]("bar_sync_reverse", ["block: 128"] +
                    G["in_lines"](data) + ["out: u32 128"], body)

def generate(g):
    G.update(g)
    int64_cases()
    int16_cases()
    more_int_cases()
    f32_rounding_cases()
    f16_cases()
    float_more_cases()
    cvt_more_cases()
    f64_cases()
    import gen_f64
    gen_f64.generate(G)
    warp_cases()
    atomic_cases()
    atomic64_cases()
    memory_cases()
    barrier_cases()
    irreducible_cases()
    form_cases()
    misc_int_cases()
    call_cases()
