"""gen_f64.py — the second family of fp64 cases (issue 6), run by gen_more.py.

gen_more.f64_cases() crosses every .f64 instruction with one set of edge
values.  These cases aim at the places a software binary64 gets wrong:
results at the subnormal and overflow thresholds in each rounding mode,
sticky bits lost when a tiny addend meets a huge one, fma/mad whose product
cancels exactly or nearly, quotients near a rounding midpoint, integers that
need rounding into 53 bits, conversions to f32/f16/small integers
(saturation, .ftz, double rounding through f32), the compare forms with a
boolean operation, and the moves and vector accesses around f64 registers.

Operands are plain bit patterns chosen here (hard cases found by exact
integer arithmetic where a property is needed, e.g. a quotient within
2^-13 ulp of a midpoint); expected outputs come only from an NVIDIA GPU
(tests/ptx/gen.sh).  Every case is listed in todo/fp64.txt until the fp64
implementation lands.
"""
import random
import struct

import gen_more as M

F64_INF, F64_NINF, F64_QNAN = 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000
F64_SNAN, F64_NNAN = 0x7ff4000000000001, 0xfff8000000000005
MAXD, MIN_NORM, MIN_SUB, MAX_SUB = 0x7fefffffffffffff, 0x0010000000000000, 0x0000000000000001, 0x000fffffffffffff
NEG = 1 << 63
ROUNDINGS = ["rn", "rz", "rm", "rp"]
F64REGS = "   .reg .f64 %fd<8>;\n"

def f64(x):
    return M.f64(x)

def bits_f64(w):
    return struct.unpack("<d", struct.pack("<Q", w))[0]

def pow2(e):
    """2^e as f64 bits (normal or subnormal)."""
    if e >= -1022:
        return (e + 1023) << 52
    return 1 << (e + 1074)

def near(w):
    """w, and one ulp either side (same sign)."""
    return [w, w + 1, w - 1]

SPECIALS = [0, NEG, F64_INF, F64_NINF, F64_QNAN, F64_SNAN, F64_NNAN, MIN_SUB, NEG | MIN_SUB, MAX_SUB,
            MIN_NORM, MAXD, NEG | MAXD, f64(1.0), f64(-1.0)]

# ---- operand sets ----

def mul_tiny():
    """Products at the underflow threshold (2^-511 · 2^-511 = 2^-1022), in
    the subnormal range (ties at half the smallest subnormal), and at the
    overflow threshold."""
    h = pow2(-511)
    return [(h, h - 1), (h - 1, h), (MIN_NORM, f64(1.0) - 1), (NEG | MIN_NORM, f64(1.0) - 1), (MIN_NORM + 1, f64(1.0) - 1),
            (MIN_NORM, f64(0.5)), (MIN_NORM * 2 - 1, f64(0.5) + 1), (h + 1, h - 2), (pow2(-512) + 1, h - 1),
            (MIN_SUB, f64(0.5)), (MIN_SUB, f64(0.75)), (3, f64(0.5)), (NEG | 3, f64(0.5)), (MIN_SUB, f64(-0.25)),
            (MAXD, f64(1.0) + 1), (NEG | MAXD, f64(1.0) + 1), (pow2(1023), f64(2.0)), (f64(1.0) + 1, f64(1.0) + 1),
            (MIN_NORM, f64(-1.0) + 1), (pow2(-600) + 5, pow2(-470) + 3), (MAX_SUB, f64(1.0) + 1), (MAX_SUB, f64(2.0) - 1)]

def add_sticky():
    """A tiny addend against a huge one: the tiny one only shows in the
    sticky bit, so each rounding mode decides differently."""
    one = f64(1.0)
    return [(one, pow2(-60)), (one, NEG | pow2(-60)), (one, pow2(-53)), (one + 1, pow2(-53)), (one, pow2(-53) + 1),
            (one, NEG | pow2(-53)), (one, NEG | pow2(-54)), (one, NEG | MIN_SUB), (NEG | one, MIN_SUB),
            (MAXD, pow2(970)), (MAXD, pow2(970) - 1), (NEG | MAXD, NEG | pow2(970)), (MAXD, MAXD),
            (f64(1e300), f64(-1e-300)), (f64(2.0 ** 53), one), (f64(2.0 ** 53) + 1, one), (f64(2.0 ** 53), NEG | pow2(-1)),
            (0, NEG), (NEG, 0), (NEG, NEG), (one, f64(-1.0)), (MIN_NORM, NEG | MAX_SUB), (MIN_NORM, NEG | MIN_NORM),
            (f64(3.0), pow2(-1074 + 1)), (pow2(-1000), NEG | MIN_SUB)]

def div_edges():
    one = f64(1.0)
    return [(MIN_SUB, f64(2.0)), (3, f64(2.0)), (MIN_SUB, f64(-3.0)), (MAX_SUB, f64(2.0)), (one, MAXD), (one, pow2(1023)),
            (MIN_NORM, one + 1), (MIN_NORM, f64(1.0) - 1), (MAXD, f64(0.5)), (MAXD, one - 1), (one, MIN_SUB),
            (NEG | one, MIN_SUB), (MIN_SUB, MAXD), (NEG | MIN_SUB, MAXD), (f64(-1.0), 0), (one, NEG), (0, 0),
            (NEG, f64(-5.0)), (F64_INF, F64_INF), (F64_NINF, f64(3.0)), (f64(5.0), F64_NINF), (F64_SNAN, one),
            (one, F64_NNAN), (0, F64_QNAN), (MAX_SUB, MIN_NORM), (MAX_SUB, MAX_SUB), (MIN_SUB, MIN_SUB),
            (pow2(-1020), pow2(60) + 1), (pow2(1000), pow2(-30) - 1), (f64(1.0 / 3.0), f64(3.0))]

def div_near_half(count=24):
    """a/b within a tiny fraction of an ulp of a rounding midpoint, either
    side (a correctly rounded quotient needs the exact remainder).  Found by
    exact integer search over random 53-bit significands."""
    rng = random.Random(6464)
    found = []
    while len(found) < count:
        best = None
        for _ in range(20000):
            a = rng.getrandbits(52) | (1 << 52)
            b = rng.getrandbits(52) | (1 << 52)
            s = 53 if a >= b else 54           # a*2^s/b in [2^53, 2^54)
            q, r = divmod(a << s, b)           # q: 53 bits + round bit
            frac = (r << 64) // b             # below the round bit, in 2^-64 units
            dist = frac if q & 1 else (1 << 64) - frac
            if best is None or dist < best[0]:
                best = (dist, a, b)
        _, a, b = best
        ea, eb = rng.randint(-40, 40), rng.randint(-40, 40)
        sa, sb = rng.getrandbits(1), rng.getrandbits(1)
        found.append(((sa << 63) | ((ea + 1023) << 52) | (a & MAX_SUB), (sb << 63) | ((eb + 1023) << 52) | (b & MAX_SUB)))
    # the same significands with quotients landing in the subnormal range
    found += [((a & ~(0x7ff << 52)) | (1 << 52), (b & ~(0x7ff << 52)) | ((1023 + 30) << 52)) for a, b in found[:6]]
    return found

def rcp_edges():
    return [MIN_SUB, NEG | MIN_SUB, MAX_SUB, pow2(-1024), pow2(-1024) + 1, pow2(-1023), pow2(1022), pow2(1022) + 1, pow2(1023),
            MAXD, NEG | MAXD, pow2(1022) - 1, 0, NEG, F64_INF, F64_NINF, F64_QNAN, F64_SNAN, F64_NNAN, f64(3.0),
            f64(-7.0), f64(1.0) + 1, f64(1.0) - 1, MIN_NORM, MIN_NORM + 1]

def sqrt_edges():
    return [MIN_SUB, 2, 3, MAX_SUB, pow2(-1073), 0x0008000000000000, MIN_NORM, MIN_NORM + 1, MAXD, MAXD - 1, 0, NEG,
            F64_INF, F64_NINF, F64_QNAN, F64_SNAN, F64_NNAN, f64(-1.0), NEG | MIN_SUB, f64(2.0), f64(4.0), f64(0.5)]

def sqrt_squares():
    """y^2 exact for y with a 26-bit significand, and one ulp either side
    (sqrt of those is not exact, and lies just beside y)."""
    rng = random.Random(65)
    out = []
    for k in range(16):
        m = rng.getrandbits(25) | (1 << 25)
        y = m * 2.0 ** rng.randint(-300, 300)
        out += near(f64(y * y))
    out += near(f64(9.0)) + near(f64(2.0 ** -1000)) + near(pow2(-1072))
    return out

def fma_cancel():
    """c = -(a·b) rounded, plus or minus a few ulps, so the exact
    product's low part decides; products exactly representable (cancel to
    zero, whose sign depends on the mode); and results that underflow."""
    rng = random.Random(66)
    R = M.rnd_f64(rng, 24)
    out = []
    for k, (a, b) in enumerate(zip(R, R[5:] + R[:5])):
        c = f64(-(bits_f64(a) * bits_f64(b)))
        out.append((a, b, (c + (k % 5) - 2) & ((1 << 64) - 1)))
    for a, b in [(f64(3.0), f64(0.5)), (f64(-1.25), f64(8.0)), (f64(1.0) + 1, f64(1.0) - 1)]:
        out.append((a, b, f64(-(bits_f64(a) * bits_f64(b)))))
        out.append((a, b ^ NEG, f64(bits_f64(a) * bits_f64(b))))
    h = pow2(-511)
    out += [(h, h, NEG | MIN_NORM), (h, h + 1, NEG | MIN_NORM), (h + 1, h + 1, NEG | (MIN_NORM + 2)), (h, h - 1, MIN_SUB),
            (h, h - 1, NEG | MIN_SUB), (MIN_SUB, f64(0.5), 0), (MIN_SUB, f64(0.5), NEG), (MIN_SUB, f64(-0.5), MIN_SUB),
            (MAXD, f64(2.0), NEG | MAXD), (MAXD, f64(1.0) + 1, NEG | MAXD), (F64_INF, 0, f64(1.0)), (F64_INF, f64(1.0), F64_NINF)]
    return out

def f16_from_f64():
    """Around f16's limits and halfway points; the 1+2^-11+2^-40 inputs
    catch a conversion that rounds through f32 first (double rounding)."""
    xs = [65504.0, 65519.99999, 65520.0, -65520.0, 1e300, 2.0 ** -24, 2.0 ** -25, 2.0 ** -25 + 2.0 ** -60, 3 * 2.0 ** -26,
          2.0 ** -14, 2.0 ** -14 - 2.0 ** -30, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -11 + 2.0 ** -40,
          1.0 + 2.0 ** -11 - 2.0 ** -40, -1.0 - 2.0 ** -11 - 2.0 ** -40, 0.1, -2.5e-300, 3.14159265358979]
    return [f64(x) for x in xs] + [0, NEG, F64_INF, F64_NINF, F64_QNAN, F64_NNAN, MIN_SUB]

def f32_from_f64():
    """Around f32's subnormal range, its smallest normal, its largest
    value and overflow, and values f32 cannot hold."""
    xs = [2.0 ** -130, 2.0 ** -149, 2.0 ** -150, 2.0 ** -150 + 2.0 ** -200, 1.5 * 2.0 ** -149, 2.5 * 2.0 ** -149,
          2.0 ** -126 * (1 - 2.0 ** -30), -2.0 ** -126 * (1 - 2.0 ** -30), 2.0 ** -126, 3.4028235677973366e38,
          3.4028235677973362e38, 3.4028234663852886e38, -3.4028235677973366e38, 1e39, 1.0 + 2.0 ** -24,
          1.0 + 2.0 ** -24 + 2.0 ** -60, 0.5, 1.5, -0.25, 1.0 - 2.0 ** -60, 1e-300]
    return [f64(x) for x in xs] + [0, NEG, F64_INF, F64_NINF, F64_QNAN, F64_NNAN, F64_SNAN, MIN_SUB, MAXD]

def int_from_f64():
    xs = [0.5, 1.5, 2.5, -0.5, -1.5, 127.5, 128.0, -128.5, -129.0, 255.5, 256.0, 32767.5, 32768.0, -32768.6, -32769.0,
          65535.4, 65535.5, 65536.0, -1.0, 1e300, -1e300, 0.49999999999999994, 2.0 ** 52 + 0.5 - 0.5]
    return [f64(x) for x in xs] + [0, NEG, F64_INF, F64_NINF, F64_QNAN, F64_NNAN, MIN_SUB]

def s64_round():
    """Integers that need rounding into 53 bits: ties (2^53+1, 2^53+3),
    just above and below ties, near 2^63 and 2^64, negatives."""
    t = 1 << 53
    vals = [t + 1, t + 3, t + 2, t - 1, (1 << 54) + 2, (1 << 54) + 6, (1 << 54) + 1, (1 << 63) - 1, 0x7ffffffffffffc00,
            0x7ffffffffffffdff, 0x7ffffffffffffe00, 0x7ffffffffffffa00, 0xfffffffffffff800, 0xfffffffffffffc00,
            0xfffffffffffffbff, 0xfffffffffffffe01, 0x8000000000000000, 0x8000000000000401, 0x8000000000000600,
            (-(t + 1)) & ((1 << 64) - 1), (-(t + 3)) & ((1 << 64) - 1), 123456789012345678, 0x0020000000000003, 0, 1]
    return vals

# ---- families ----

def arith_cases():
    for rnd in ROUNDINGS:
        M.op64("mul_%s_f64_tiny" % rnd, "   mul.%s.f64 %%x5, %%x0, %%x1;\n" % rnd, combos=mul_tiny())
        M.op64("add_%s_f64_sticky" % rnd, "   add.%s.f64 %%x5, %%x0, %%x1;\n" % rnd, combos=add_sticky())
        M.op64("div_%s_f64_edge" % rnd, "   div.%s.f64 %%x5, %%x0, %%x1;\n" % rnd, combos=div_edges())
        M.op64("div_%s_f64_nearhalf" % rnd, "   div.%s.f64 %%x5, %%x0, %%x1;\n" % rnd, combos=div_near_half())
        M.op64("rcp_%s_f64_edge" % rnd, "   rcp.%s.f64 %%x5, %%x0;\n" % rnd, rcp_edges(), 1)
        M.op64("sqrt_%s_f64_edge" % rnd, "   sqrt.%s.f64 %%x5, %%x0;\n" % rnd, sqrt_edges(), 1)
        M.op64("sqrt_%s_f64_squares" % rnd, "   sqrt.%s.f64 %%x5, %%x0;\n" % rnd, sqrt_squares(), 1)
        M.op64("fma_%s_f64_cancel" % rnd, "   fma.%s.f64 %%x5, %%x0, %%x1, %%x2;\n" % rnd, nops=3, combos=fma_cancel())
        M.op64("mad_%s_f64_cancel" % rnd, "   mad.%s.f64 %%x5, %%x0, %%x1, %%x2;\n" % rnd, nops=3, combos=fma_cancel())
    # .approx: the same tolerances as rsqrt_approx_f64 and rcp_approx_ftz_f64
    # (rcp.approx.ftz.f64 keeps only the high word: about 20 significand
    # bits); special values and subnormal inputs must match exactly.
    approx_in = [f64(x) for x in (1.0, 3.0, 0.1, 7.5e-300, 1.3e300, 123456.789, 2.0 ** -1022, 0.7)] + \
                [MIN_SUB, MAX_SUB, 0, NEG, F64_INF, F64_QNAN, MAXD]
    M.op64("rsqrt_approx_f64_more", "   rsqrt.approx.f64 %x5, %x0;\n", approx_in + [F64_NINF, f64(-4.0)], 1,
           extra=["ulp: 1"])
    M.op64("rcp_approx_ftz_f64_more", "   rcp.approx.ftz.f64 %x5, %x0;\n", approx_in + [f64(-3.0), F64_NINF, pow2(1023)], 1,
           extra=["rel: 1e-6"])

def minmax_sign_cases():
    vals = [0, NEG, F64_QNAN, F64_SNAN, F64_NNAN, f64(1.0), f64(-1.0), MIN_SUB, NEG | MIN_SUB, F64_NINF]
    for op in ["min", "max"]:
        M.op64("%s_f64_nan_zero" % op, "   %s.f64 %%x5, %%x0, %%x1;\n" % op, vals, 2)
    signs = [0, NEG, F64_QNAN, F64_NNAN, F64_SNAN, 0xfff4000000000001, 0x7fffffffffffffff, F64_INF, F64_NINF, MIN_SUB]
    for op in ["abs", "neg"]:
        M.op64("%s_f64_nan" % op, "   %s.f64 %%x5, %%x0;\n" % op, signs, 1)
    M.op64("copysign_f64_nan", "   copysign.f64 %x5, %x0, %x1;\n", signs[:8], 2)

def compare_cases():
    vals = [0, NEG, f64(1.0), f64(-2.5), F64_INF, F64_QNAN, MIN_SUB, F64_NNAN]
    pre = "   setp.ne.u64 %p3, %x2, 0;\n"
    trip = [(a, b, c) for a in vals for b in vals for c in (0, 1)]
    for name, ins in [("set_lt_and_u32_f64", "set.lt.and.u32.f64 %r10, %x0, %x1, %p3"),
                      ("set_equ_or_s32_f64", "set.equ.or.s32.f64 %r10, %x0, %x1, !%p3"),
                      ("set_gtu_xor_f32_f64", "set.gtu.xor.f32.f64 %r10, %x0, %x1, %p3"),
                      ("set_num_u32_f64", "set.num.u32.f64 %r10, %x0, %x1")]:
        M.op64(name, pre + "   %s;\n" % ins, combos=trip, nops=3, out32=True)
    M.op64("setp_f64_pair_and", pre + "   setp.le.and.f64 %p1|%p2, %x0, %x1, %p3;\n   selp.u32 %r10, 1, 0, %p1;\n"
           "   selp.u32 %r11, 2, 0, %p2;\n   or.b32 %r10, %r10, %r11;\n", combos=trip, nops=3, out32=True)
    M.op64("setp_f64_or_not", pre + "   setp.neu.or.f64 %p1, %x0, %x1, !%p3;\n   setp.ltu.xor.f64 %p2|%p4, %x0, %x1, %p3;\n"
           "   selp.u32 %r10, 1, 0, %p1;\n   selp.u32 %r11, 2, 0, %p2;\n   or.b32 %r10, %r10, %r11;\n"
           "   selp.u32 %r11, 4, 0, %p4;\n   or.b32 %r10, %r10, %r11;\n", combos=trip, nops=3, out32=True)
    classes = ["finite", "infinite", "number", "notanumber", "normal", "subnormal"]
    body = "   mov.u32 %r10, 0;\n"
    for k, cls in enumerate(classes):
        body += "   testp.%s.f64 %%p1, %%x0;\n   selp.u32 %%r11, %d, 0, %%p1;\n   or.b32 %%r10, %%r10, %%r11;\n" % (cls, 1 << k)
    M.op64("testp_all_f64_edge", body, SPECIALS + [NEG | MAX_SUB, NEG | MIN_NORM, 0xfff0000000000001, 0x7ff0000000000001,
                                                   0x7fffffffffffffff, MIN_NORM - 1, f64(-2.5e-310)], 1, out32=True)

def cvt_cases():
    post16 = "   cvt.u32.u16 %r10, %h1;\n"
    for rnd in ROUNDINGS:
        M.op64("cvt_%s_f16_f64" % rnd, "   cvt.%s.f16.f64 %%h1, %%x0;\n" % rnd + post16, f16_from_f64(), 1, out32=True)
        M.op64("cvt_%s_ftz_f32_f64" % rnd, "   cvt.%s.ftz.f32.f64 %%r10, %%x0;\n" % rnd, f32_from_f64(), 1, out32=True)
        M.op64("cvt_%s_sat_f32_f64" % rnd, "   cvt.%s.sat.f32.f64 %%r10, %%x0;\n" % rnd, f32_from_f64(), 1, out32=True)
    M.op64("cvt_f64_f16", "   cvt.u16.u64 %h1, %x0;\n   cvt.f64.f16 %x5, %h1;\n",
           [0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
            0xfe01, 0x3555, 0x1234], 1)
    M.op64("cvt_sat_f64_f64", "   cvt.sat.f64.f64 %x5, %x0;\n", f32_from_f64(), 1)
    M.op64("cvt_rni_sat_f64_f64", "   cvt.rni.sat.f64.f64 %x5, %x0;\n", f32_from_f64(), 1)
    for rnd in ["rni", "rzi"]:
        for dst in ["s16", "u16", "s8", "u8"]:
            M.op64("cvt_%s_%s_f64" % (rnd, dst), "   cvt.%s.%s.f64 %%h1, %%x0;\n" % (rnd, dst) + post16,
                   int_from_f64(), 1, out32=True)
    small = [0, 1, 0x7f, 0x80, 0xff, 0x1ff, 0x7fff, 0x8000, 0xffff, 0x12345, 0xfffffff9]
    M.op64("cvt_rn_f64_s16", "   cvt.u16.u64 %h1, %x0;\n   cvt.rn.f64.s16 %x5, %h1;\n", small, 1)
    M.op64("cvt_rn_f64_u8", "   cvt.u16.u64 %h1, %x0;\n   cvt.rn.f64.u8 %x5, %h1;\n", small, 1)
    M.op64("cvt_rn_sat_f64_s32", "   cvt.u32.u64 %r2, %x0;\n   cvt.rn.sat.f64.s32 %x5, %r2;\n", small, 1)
    M.op64("cvt_rn_sat_f64_u64", "   cvt.rn.sat.f64.u64 %x5, %x0;\n", small + [1 << 63], 1)
    for rnd in ROUNDINGS:
        for src in ["s64", "u64"]:
            M.op64("cvt_%s_f64_%s_round" % (rnd, src), "   cvt.%s.f64.%s %%x5, %%x0;\n" % (rnd, src), s64_round(), 1)

def move_cases():
    """f64 registers through moves, packs and vector accesses, each with an
    f64 operation between load and store so that the value is used as a
    double, not only carried as 64 bits."""
    vals = [f64(1.5), NEG, F64_SNAN, F64_NNAN, MIN_SUB, MAXD, f64(-2.0), 0x123456789abcdef0]
    M.op64("mov_b64_f64_pack", F64REGS + "   mov.b64 {%r2, %r3}, %x0;\n   mov.b64 %fd1, {%r2, %r3};\n   mov.b64 %fd3, %x1;\n"
           "   add.rn.f64 %fd2, %fd1, %fd3;\n   mov.b64 {%r4, %r5}, %fd2;\n   mov.b64 %x5, {%r5, %r4};\n", vals, 2)
    M.op64("selp_f64_nan", F64REGS + "   setp.ne.u64 %p1, %x2, 0;\n   mov.b64 %fd1, %x0;\n   mov.b64 %fd2, %x1;\n"
           "   neg.f64 %fd2, %fd2;\n   selp.f64 %fd3, %fd1, %fd2, %p1;\n   abs.f64 %fd4, %fd3;\n   selp.f64 %fd5, %fd3, %fd4, %p1;\n"
           "   mov.b64 %x5, %fd5;\n", combos=[(a, b, c) for a in vals[:5] for b in vals[:5] for c in (0, 1)], nops=3)
    words = []
    for a, b in zip(vals * 4, (vals[3:] + vals[:3]) * 4):
        words += [a, b]
    n = len(words) // 2
    body = F64REGS + ("   mul.wide.u32 %rd3, %r1, 16;\n   add.s64 %rd4, %rd1, %rd3;\n   add.s64 %rd6, %rd2, %rd3;\n"
                      "   ld.global.v2.f64 {%fd1, %fd2}, [%rd4];\n   add.rn.f64 %fd3, %fd1, %fd2;\n   mul.rz.f64 %fd4, %fd1, %fd2;\n"
                      "   st.global.v2.f64 [%rd6], {%fd3, %fd4};\n")
    M.G["write_case"]("ld_st_v2_f64", ["block: %d" % n] + M.in64_lines(words) + ["out: u64 %d" % (2 * n)], body)

def generate(g):
    arith_cases()
    minmax_sign_cases()
    compare_cases()
    cvt_cases()
    move_cases()
