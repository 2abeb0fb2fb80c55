// metalcuda MSL prelude: exact rounding in every PTX rounding mode.
//
// MSL rounds to nearest even only and has no rounding-mode control
// (notes/metal-semantics.md §1.6), yet PTX has .rz/.rm/.rp on f32 add, sub,
// mul, fma, div, rcp and sqrt, and on conversions into f32, f16 and bf16
// (PTX ISA 9.0 §9.7.3, §9.7.9.21).  Each such result is built in two steps:
//
//  1. An mc_xf: the operands are taken apart into ±m·2^e (1 <= m < 2) with
//     integer arithmetic, so subnormal inputs never reach the FPU (Apple
//     GPUs may flush them), and the operation is done on the m's, where
//     nothing can underflow or overflow.  That gives a float r next to the
//     exact result x (r·2^s rounded to nearest, or at least faithful: one
//     of the two floats around x) and the sign of the remainder x - r·2^s,
//     found exactly with error-free transformations: Fast2Sum (add), fma
//     (mul), the division and square-root remainders fma(-q, b, a) and
//     fma(-s, s, a), ErrFma for fma (Boldo & Muller, IEEE TC 60(2), 2011).
//     NaN, infinity and zero operands give their IEEE 754 result directly.
//  2. mc_round_core rounds r·2^s (plus that sign) to f32, f16 or bf16 in
//     the wanted mode with integer arithmetic: subnormal grid, and overflow
//     to infinity or to the largest finite value as the mode says (IEEE 754
//     §7.4: .rz/.rm/.rp never overflow towards the wrong side).
//
// What this asks of the hardware (to verify on a Mac with
// tests/unit/test_msl_round.c, which compares against an exact host
// reference): +, -, * rounded to nearest on normal operands, fma with a
// single rounding, 1/x and sqrt within a few ulps (one Newton step makes the
// quotient and the root faithful), and no contraction or reassociation of
// these helpers' arithmetic (MTLMathModeSafe; fast math would fold the
// error-free transformations away).
//
// Modes: 0 rn, 1 rz, 2 rm, 3 rp (ir_rnd minus IR_RND_RN).  Formats: f32 in
// uint bits, f16 and bf16 in the low 16 bits of a uint.

#define MC_RN 0
#define MC_RZ 1
#define MC_RM 2
#define MC_RP 3
// Or'ed into a mode by the f32 forms with .ftz: an H200 flushes a result
// whose exact value lies below 2^-126 even when it rounds to ±2^-126
// (tininess before rounding: tests/ptx/cases/{mul,div}_r?_ftz_f32_tiny.ptx).
#define MC_FTZ 4
#define MC_FMT_F32 0
#define MC_FMT_F16 1
#define MC_FMT_BF16 2

// Rounds the magnitude M·2^(E-31) + d to format fmt and returns the
// magnitude bits.  M has its leading one at bit 31; dm is the sign of d
// (0: exact).  d is smaller than one unit in the last place of the
// precision M was produced in (a float: 24 bits; an integer: 32 bits and
// d = the bits below), so when M lies on the target grid d only says on
// which side the exact value is.  Round to nearest also needs |d| below
// half the target's unit, true whenever the target is coarser than r.
inline uint mc_round_core(uint M, int E, int dm, bool neg, int mode, int fmt)
{
    uint mbits = fmt == MC_FMT_F16 ? 10u : fmt == MC_FMT_BF16 ? 7u : 23u;
    int emin = fmt == MC_FMT_F16 ? -14 : -126, emax = fmt == MC_FMT_F16 ? 15 : 127;
    uint infb = (uint)(emax - emin + 2) << mbits;
    bool up = mode == MC_RP ? !neg : mode == MC_RM ? neg : false;   // away from zero when inexact
    if (E > emax)
        return mode == MC_RN || up ? infb : infb - 1u;
    uint sh = min((31u - mbits) + (uint)max(emin - E, 0), 33u);     // below emin: the subnormal grid
    ulong m = (ulong)M;
    ulong lost = m & ((1ul << sh) - 1ul), halfway = 1ul << (sh - 1u);   // (not `half`: an MSL type)
    uint q = (uint)(m >> sh);
    uint mag = E >= emin ? ((uint)(E - emin) << mbits) + q : q;     // exponent field + fraction
    if (mode == MC_RN) {
        if (lost > halfway || (lost == halfway && (dm > 0 || (dm == 0 && (mag & 1u) != 0u))))
            mag++;
    } else if (lost != 0ul) {
        if (up)
            mag++;
    } else if (dm > 0 && up) {
        mag++;
    } else if (dm < 0 && !up) {
        mag--;   // M is on the grid and the exact value just below it
    }
    return mag;   // reaches infinity only by rounding up from the largest finite value: right
}

inline uint mc_fmt_sign(int fmt) { return fmt == MC_FMT_F32 ? 0x80000000u : 0x8000u; }

// A finite nonzero f32 as ±M·2^(e-31), M's leading one at bit 31.
inline uint mc_mant32(uint x, thread int &e)
{
    uint f = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (f == 0u) {   // subnormal: normalise with integer arithmetic
        uint sh = clz(m) - 8u;
        e = -126 - (int)sh;
        return m << (sh + 8u);
    }
    e = (int)f - 127;
    return (m | 0x800000u) << 8;
}

// A finite nonzero f32 as ±m·2^e with 1 <= m < 2 (m is returned).
inline float mc_unpack(uint x, thread int &e)
{
    uint M = mc_mant32(x, e);
    return as_type<float>((x & 0x80000000u) | 0x3f800000u | ((M >> 8) & 0x7fffffu));
}

// m·2^d for a normal m and a normal result: exponent arithmetic only.
inline float mc_ldexp_n(float m, int d) { return as_type<float>(as_type<uint>(m) + ((uint)d << 23)); }

// An f32 value (exact: a NaN, an infinity, a zero or any finite value) in
// format fmt, rounded in the given mode.  NaN gives NVIDIA's canonical NaN
// (0x7fffffff, 0x7fff), as every f32/f16/bf16 operation does on an H200.
inline uint mc_round_f32_to(uint x, int mode, int fmt)
{
    uint a = x & 0x7fffffffu;
    if (fmt == MC_FMT_F32)
        return a > 0x7f800000u ? 0x7fffffffu : x;
    uint s = (x >> 16) & 0x8000u;
    if (a > 0x7f800000u)
        return 0x7fffu;
    if (a == 0x7f800000u)
        return s | (fmt == MC_FMT_F16 ? 0x7c00u : 0x7f80u);
    if (a == 0u)
        return s;
    int e;
    uint M = mc_mant32(x, e);
    return s | mc_round_core(M, e, 0, s != 0u, mode, fmt);
}

// ---- exact results: r·2^s plus a remainder of sign de, or exact bits ----

struct mc_xf {
    bool exact;   // the result is the f32 value `bits` exactly
    uint bits;
    float r;      // otherwise (r + d)·2^s with sign(d) = de, |d| < ulp(r)
    int s;
    int de;
};

inline mc_xf mc_xf_bits(uint bits)
{
    mc_xf x;
    x.exact = true;
    x.bits = bits;
    x.r = 0.0f;
    x.s = 0;
    x.de = 0;
    return x;
}

inline mc_xf mc_xf_val(float r, int s, float d)
{
    mc_xf x;
    x.exact = false;
    x.bits = 0u;
    x.r = r;
    x.s = s;
    x.de = d > 0.0f ? 1 : d < 0.0f ? -1 : 0;
    return x;
}

// The exact result x stands for is below 2^-126 in magnitude (zero too).
inline bool mc_tiny(mc_xf x)
{
    if (x.exact)
        return (x.bits & 0x7f800000u) == 0u;
    uint b = as_type<uint>(x.r);
    int E = (int)((b >> 23) & 0xffu) - 127 + x.s;
    int dm = (b >> 31) != 0u ? -x.de : x.de;
    return E < -126 || (E == -126 && (b & 0x7fffffu) == 0u && dm < 0);
}

inline uint mc_xround(mc_xf x, int mode, int fmt)
{
    if ((mode & MC_FTZ) != 0 && mc_tiny(x))
        return (x.exact ? x.bits : as_type<uint>(x.r)) & 0x80000000u;
    mode &= 3;
    if (x.exact)
        return mc_round_f32_to(x.bits, mode, fmt);
    uint b = as_type<uint>(x.r);
    bool neg = (b >> 31) != 0u;
    int E = (int)((b >> 23) & 0xffu) - 127 + x.s;
    uint M = ((b & 0x7fffffu) | 0x800000u) << 8;
    uint mag = mc_round_core(M, E, neg ? -x.de : x.de, neg, mode, fmt);
    return (neg ? mc_fmt_sign(fmt) : 0u) | mag;
}

// An exact zero sum of nonzero operands, or of zeros of opposite signs, is
// +0 except when rounding towards -inf (IEEE 754 §6.3).
inline uint mc_zero_sum(int mode) { return mode == MC_RM ? 0x80000000u : 0u; }

// Knuth's TwoSum: s + err == a + b exactly (rounding to nearest).
inline float mc_two_sum(float a, float b, thread float &err)
{
    float s = a + b, bb = s - a;
    err = (a - (s - bb)) + (b - bb);
    return s;
}

inline mc_xf mc_xadd(uint a, uint b, int mode)
{
    uint aa = a & 0x7fffffffu, ab = b & 0x7fffffffu;
    if (aa > 0x7f800000u || ab > 0x7f800000u)
        return mc_xf_bits(0x7fffffffu);
    if (aa == 0x7f800000u)
        return mc_xf_bits(ab == 0x7f800000u && a != b ? 0x7fffffffu : a);   // inf - inf
    if (ab == 0x7f800000u)
        return mc_xf_bits(b);
    if (aa == 0u)
        return mc_xf_bits(ab != 0u ? b : a == b ? a : mc_zero_sum(mode));
    if (ab == 0u)
        return mc_xf_bits(a);
    int ea, eb;
    float ma = mc_unpack(a, ea), mb = mc_unpack(b, eb);
    if (ea < eb) {
        float t = ma;
        ma = mb;
        mb = t;
        int u = ea;
        ea = eb;
        eb = u;
    }
    int d = eb - ea;
    if (d < -40)   // |b| < ulp(a)/2^16: a + b rounds to a, b is the remainder
        return mc_xf_val(ma, ea, mb);
    float mb2 = mc_ldexp_n(mb, d);
    float s = ma + mb2;
    if (s == 0.0f)
        return mc_xf_bits(mc_zero_sum(mode));
    float z = s - ma;   // Fast2Sum (|ma| >= |mb2|): s + (mb2 - z) == ma + mb2
    return mc_xf_val(s, ea, mb2 - z);
}

inline mc_xf mc_xmul(uint a, uint b)
{
    uint aa = a & 0x7fffffffu, ab = b & 0x7fffffffu, sg = (a ^ b) & 0x80000000u;
    if (aa > 0x7f800000u || ab > 0x7f800000u)
        return mc_xf_bits(0x7fffffffu);
    if (aa == 0x7f800000u || ab == 0x7f800000u)
        return mc_xf_bits(aa == 0u || ab == 0u ? 0x7fffffffu : sg | 0x7f800000u);
    if (aa == 0u || ab == 0u)
        return mc_xf_bits(sg);
    int ea, eb;
    float ma = mc_unpack(a, ea), mb = mc_unpack(b, eb);
    float p = ma * mb;
    return mc_xf_val(p, ea + eb, fma(ma, mb, -p));
}

inline mc_xf mc_xdiv(uint a, uint b)
{
    uint aa = a & 0x7fffffffu, ab = b & 0x7fffffffu, sg = (a ^ b) & 0x80000000u;
    if (aa > 0x7f800000u || ab > 0x7f800000u)
        return mc_xf_bits(0x7fffffffu);
    if (aa == 0x7f800000u)
        return mc_xf_bits(ab == 0x7f800000u ? 0x7fffffffu : sg | 0x7f800000u);
    if (ab == 0x7f800000u)
        return mc_xf_bits(sg);
    if (ab == 0u)
        return mc_xf_bits(aa == 0u ? 0x7fffffffu : sg | 0x7f800000u);
    if (aa == 0u)
        return mc_xf_bits(sg);
    int ea, eb;
    float ma = mc_unpack(a, ea), mb = mc_unpack(b, eb);
    // q within a few ulps of ma/mb, then one correction with the exact
    // remainder: faithful even if 1/x is not correctly rounded.
    float y = 1.0f / mb;
    float q = ma * y;
    float r = fma(-q, mb, ma);
    q = fma(r, y, q);
    r = fma(-q, mb, ma);   // ma/mb - q = r/mb: the sign of r·mb
    return mc_xf_val(q, ea - eb, mb > 0.0f ? r : -r);
}

inline mc_xf mc_xsqrt(uint a)
{
    uint aa = a & 0x7fffffffu;
    if (aa > 0x7f800000u || (a != aa && aa != 0u))   // NaN, or below zero (-0 is fine)
        return mc_xf_bits(0x7fffffffu);
    if (aa == 0u || aa == 0x7f800000u)
        return mc_xf_bits(a);
    int e;
    float m = mc_unpack(a, e);
    if ((e & 1) != 0) {   // an even exponent: m in [1, 4)
        m = mc_ldexp_n(m, 1);
        e -= 1;
    }
    float s = sqrt(m);
    float r = fma(-s, s, m);
    s = fma(r, 0.5f / s, s);   // one Newton step: faithful
    r = fma(-s, s, m);
    return mc_xf_val(s, e / 2, r);
}

inline mc_xf mc_xfma(uint a, uint b, uint c, int mode)
{
    uint aa = a & 0x7fffffffu, ab = b & 0x7fffffffu, ac = c & 0x7fffffffu;
    uint sp = (a ^ b) & 0x80000000u;
    if (aa > 0x7f800000u || ab > 0x7f800000u || ac > 0x7f800000u)
        return mc_xf_bits(0x7fffffffu);
    if (aa == 0x7f800000u || ab == 0x7f800000u) {
        if (aa == 0u || ab == 0u || (ac == 0x7f800000u && (c & 0x80000000u) != sp))
            return mc_xf_bits(0x7fffffffu);   // inf * 0, inf - inf
        return mc_xf_bits(sp | 0x7f800000u);
    }
    if (ac == 0x7f800000u)
        return mc_xf_bits(c);
    if (aa == 0u || ab == 0u)   // a zero product (sign sp) plus c
        return mc_xf_bits(ac != 0u ? c : c == sp ? c : mc_zero_sum(mode));
    if (ac == 0u)
        return mc_xmul(a, b);
    int ea, eb, ec;
    float ma = mc_unpack(a, ea), mb = mc_unpack(b, eb), mc = mc_unpack(c, ec);
    int ep = ea + eb, d = ec - ep;
    if (d > 28)   // |a·b| < ulp(c)/16: the result rounds to c, the product is the remainder
        return mc_xf_val(mc, ec, ma * mb);
    if (d < -100) {   // |c| < 2^-99·2^ep: below the quantum 2^-46 of ma·mb, only its sign matters
        mc = as_type<float>((as_type<uint>(mc) & 0x80000000u) | 0x3f800000u);
        d = -100;
    }
    float cs = mc_ldexp_n(mc, d);   // every value below is a multiple of 2^-123, below 2^31: normal
    float p = ma * mb, pe = fma(ma, mb, -p);   // ma·mb = p + pe exactly
    float r = fma(ma, mb, cs);
    if (r == 0.0f)
        return mc_xf_bits(mc_zero_sum(mode));
    // ErrFma: ma·mb + cs == r + g + z exactly.
    float z, b2;
    float a1 = mc_two_sum(cs, pe, z);
    float b1 = mc_two_sum(p, a1, b2);
    float g = (b1 - r) + b2;
    return mc_xf_val(r, ep, g + z);
}

// ---- the PTX forms ----

// The directed result from a normal round-to-nearest result r and the sign
// of the exact remainder d: one step on the bits (from the largest finite
// value up to infinity when the mode says so).
inline uint mc_step(float r, float d, int mode)
{
    uint x = as_type<uint>(r);
    bool neg = (x >> 31) != 0u, up = mode == MC_RP ? !neg : mode == MC_RM ? neg : false;
    bool above = neg ? d < 0.0f : d > 0.0f, below = neg ? d > 0.0f : d < 0.0f;   // |x| vs |r|
    if (mode == MC_RN)
        return x;
    return above && up ? x + 1u : below && !up ? x - 1u : x;
}

// add/sub/mul/div/rcp/sqrt/fma.{rz,rm,rp}.f32 (mode 1..3, | MC_FTZ; 0 is also exact
// for add, mul and fma, not for div and sqrt, whose .rn forms use / and
// sqrt).  add and mul (roundf and fmodf use add.rz) first try a short
// path: operands whose exponents keep every step normal and finite.
inline uint mc_add_rnd(uint a, uint b, int mode)
{
    uint fa = (a >> 23) & 0xffu, fb = (b >> 23) & 0xffu;
    if (fa - 25u < 229u && fb - 25u < 229u) {   // both in [2^-102, 2^127): TwoSum is exact, no overflow
        float x = mc_f(a), y = mc_f(b), d;
        float s = mc_two_sum(x, y, d);
        return s == 0.0f ? mc_zero_sum(mode & 3) : mc_step(s, d, mode & 3);   // |s| >= 2^-125: never tiny
    }
    return mc_xround(mc_xadd(a, b, mode & 3), mode, MC_FMT_F32);
}
inline uint mc_sub_rnd(uint a, uint b, int mode) { return mc_add_rnd(a, b ^ 0x80000000u, mode); }
inline uint mc_mul_rnd(uint a, uint b, int mode)
{
    uint fa = (a >> 23) & 0xffu, fb = (b >> 23) & 0xffu;
    if (fa + fb - 174u < 206u && fa - 1u < 254u && fb - 1u < 254u) {
        // normal a and b with 2^-80 <= |a·b| < 2^126·4: p finite, and its
        // remainder fma(a, b, -p), a multiple of 2^-126, exact
        float x = mc_f(a), y = mc_f(b), p = x * y;
        return mc_step(p, fma(x, y, -p), mode & 3);
    }
    return mc_xround(mc_xmul(a, b), mode, MC_FMT_F32);
}
inline uint mc_div_rnd(uint a, uint b, int mode) { return mc_xround(mc_xdiv(a, b), mode, MC_FMT_F32); }
inline uint mc_rcp_rnd(uint a, int mode) { return mc_div_rnd(0x3f800000u, a, mode); }
inline uint mc_sqrt_rnd(uint a, int mode) { return mc_xround(mc_xsqrt(a), mode, MC_FMT_F32); }
inline uint mc_fma_rnd(uint a, uint b, uint c, int mode)
{
    return mc_xround(mc_xfma(a, b, c, mode & 3), mode, MC_FMT_F32);
}

// cvt.{rn,rz,rm,rp}.{f32,f16,bf16}.{s,u}{8,16,32,64}: the magnitude's top
// 32 bits and a sticky bit for the rest, rounded by integers.
inline uint mc_cvt_int(ulong v, bool neg, int mode, int fmt)
{
    if (v == 0ul)
        return 0u;
    uint n = (uint)clz(v);
    ulong w = v << n;
    uint mag = mc_round_core((uint)(w >> 32), 63 - (int)n, (uint)w != 0u ? 1 : 0, neg, mode, fmt);
    return (neg ? mc_fmt_sign(fmt) : 0u) | mag;
}
inline uint mc_cvt_s64(long v, int mode, int fmt)
{
    ulong u = as_type<ulong>(v);
    return v < 0 ? mc_cvt_int(0ul - u, true, mode, fmt) : mc_cvt_int(u, false, mode, fmt);
}
inline uint mc_cvt_u64(ulong v, int mode, int fmt) { return mc_cvt_int(v, false, mode, fmt); }

// cvt.{rn,rz,rm,rp}.{f16,bf16}.f32
inline ushort mc_f2h_rnd(uint x, int mode) { return (ushort)mc_round_f32_to(x, mode, MC_FMT_F16); }
inline ushort mc_f2bf_rnd(uint x, int mode) { return (ushort)mc_round_f32_to(x, mode, MC_FMT_BF16); }

// f16 and bf16 lanes as exact f32 bits.
inline uint mc_h2u(ushort h) { return as_type<uint>(mc_h2f(h)); }
inline uint mc_bf2u(ushort h) { return (uint)h << 16; }

// fma.rn.f16: the f32 fma rounded again to f16 can be wrong (a product
// exactly halfway between two halves plus a c below f32's last place), so
// the exact remainder's sign breaks that tie.
inline ushort mc_fma_f16(ushort a, ushort b, ushort c)
{
    return (ushort)mc_xround(mc_xfma(mc_h2u(a), mc_h2u(b), mc_h2u(c), MC_RN), MC_RN, MC_FMT_F16);
}

// add/sub/mul/fma.rn.bf16 (and each half of .bf16x2): bf16 operands are
// exact f32 values; one rounding of the exact result.
inline ushort mc_add_bf16(ushort a, ushort b)
{
    return (ushort)mc_xround(mc_xadd(mc_bf2u(a), mc_bf2u(b), MC_RN), MC_RN, MC_FMT_BF16);
}
inline ushort mc_sub_bf16(ushort a, ushort b) { return mc_add_bf16(a, (ushort)(b ^ 0x8000u)); }
inline ushort mc_mul_bf16(ushort a, ushort b)
{
    return (ushort)mc_xround(mc_xmul(mc_bf2u(a), mc_bf2u(b)), MC_RN, MC_FMT_BF16);
}
inline ushort mc_fma_bf16(ushort a, ushort b, ushort c)
{
    return (ushort)mc_xround(mc_xfma(mc_bf2u(a), mc_bf2u(b), mc_bf2u(c), MC_RN), MC_RN, MC_FMT_BF16);
}
