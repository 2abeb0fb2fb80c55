// metalcuda MSL prelude: IEEE 754 binary64 on integer operations.
//
// Apple GPUs have no double (notes/metal-semantics.md D2), so a PTX .f64
// value lives in a ulong holding its bits, and every operation is done
// here on integers: the significands are multiplied with 32x32->64-bit
// products (mc_d_mul128), divided and square-rooted digit by digit, and
// rounded once, in the PTX rounding mode, by mc_d_round.  Nothing here
// touches the FPU, so subnormals are kept (PTX .f64 never flushes) and
// the result is the correctly rounded one in every mode.
//
// That is what an Apple GPU runs.  The software Metal device, a CPU,
// runs the same text with the host's IEEE double instead, bit for bit the
// same results ("The operations" below; src/metal/soft/README.md).
//
// NaN results are NVIDIA's, as an H200 computes them
// (tests/ptx/cases/*_f64.ptx, f64_nan_rules.ptx): an invalid operation
// (inf - inf, 0 * inf, 0 / 0, sqrt of a negative) gives
// 0xfff8000000000000; a NaN operand is returned quieted with its sign and
// payload, and of two the second operand's wins (add, sub — not negated —
// mul, min, max; fma: b, then c, then a), but the first's in div.
//
// Modes: 0 rn, 1 rz, 2 rm, 3 rp (as round.metal).

// The steps every operation is built of are always inlined: mc_d_round
// then folds its format (f64, f32, f16) into constants, and each operation
// keeps its operands in registers (bench/fp64.cu on the software device:
// add 1.5x, fma 1.75x faster than when clang kept them as calls).  The
// operations themselves are left to the compiler: a kernel of libdevice
// code has hundreds.
#define MC_D_STEP inline __attribute__((always_inline))

// On the software Metal device (its metal_stdlib defines
// __MC_SOFT_HOST_F64) the operations below are the host's IEEE double
// arithmetic (see "The operations" at the end), and these integer forms
// only its rare cases: out of line there, so that the common path stays
// a few instructions that clang can vectorise across threads.
#ifdef __MC_SOFT_HOST_F64
#define MC_D_SLOW static __attribute__((noinline))
#else
#define MC_D_SLOW inline
#endif

#define MC_D_SIGN 0x8000000000000000ul
#define MC_D_INF 0x7ff0000000000000ul
#define MC_D_QUIET 0x0008000000000000ul
#define MC_D_FRAC 0x000ffffffffffffful
#define MC_D_INVALID 0xfff8000000000000ul

MC_D_STEP bool mc_d_isnan(ulong a) { return (a & ~MC_D_SIGN) > MC_D_INF; }
MC_D_STEP bool mc_d_isinf(ulong a) { return (a & ~MC_D_SIGN) == MC_D_INF; }
MC_D_STEP bool mc_d_iszero(ulong a) { return (a & ~MC_D_SIGN) == 0ul; }
MC_D_STEP ulong mc_d_quiet(ulong a) { return a | MC_D_QUIET; }

// Leading zeros of a ulong in 32-bit halves (clz on ulong is MSL, but the
// halves keep to the 32-bit operations every Apple GPU has).
MC_D_STEP uint mc_clz64(ulong x)
{
    uint hi = (uint)(x >> 32);
    return hi != 0u ? clz(hi) : 32u + clz((uint)x);
}

// x >> n with the bits shifted out or'ed into bit 0 ("jamming"), so the
// result still says whether the exact value was above it.  Any n >= 0.
MC_D_STEP ulong mc_shr_jam(ulong x, uint n)
{
    if (n == 0u) return x;
    if (n >= 64u) return x != 0ul ? 1ul : 0ul;
    return (x >> n) | ((x << (64u - n)) != 0ul ? 1ul : 0ul);
}

// The 128-bit product a * b as hi and lo, from four 32x32->64 products.
MC_D_STEP ulong mc_d_mul128(ulong a, ulong b, thread ulong &lo)
{
    ulong a0 = a & 0xfffffffful, a1 = a >> 32, b0 = b & 0xfffffffful, b1 = b >> 32;
    ulong p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    ulong mid = (p00 >> 32) + (p01 & 0xfffffffful) + (p10 & 0xfffffffful);
    lo = (mid << 32) | (p00 & 0xfffffffful);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

// A finite nonzero f64 as m·2^(e-52) with m's leading one at bit 52
// (subnormals are normalised: e goes below -1022).
MC_D_STEP ulong mc_d_unpack(ulong a, thread int &e)
{
    int f = (int)((a >> 52) & 0x7fful);
    ulong m = a & MC_D_FRAC;
    if (f == 0) {
        uint sh = mc_clz64(m) - 11u;
        e = -1022 - (int)sh;
        return m << sh;
    }
    e = f - 1023;
    return m | (MC_D_FRAC + 1ul);
}

// Float formats that f64 rounds into: 0 f64, 1 f32, 2 f16 (the cvt forms).
#define MC_D_FMT_F64 0
#define MC_D_FMT_F32 1
#define MC_D_FMT_F16 2

// Rounds ±(sig/2^63)·2^E, plus a little more if sticky, to format fmt in
// the given mode and returns its bits (sign included).  sig's leading one
// is at bit 63; sticky says that the exact value lies strictly above
// sig·2^(E-63) (by less than one unit of sig's last bit).  Results below
// the normal range go to the subnormal grid (no flush), results above to
// infinity or to the largest finite value as IEEE 754 §7.4 says.
MC_D_STEP ulong mc_d_round(bool neg, int E, ulong sig, bool sticky, int mode, int fmt)
{
    uint mbits = fmt == MC_D_FMT_F64 ? 52u : fmt == MC_D_FMT_F32 ? 23u : 10u;
    int emax = fmt == MC_D_FMT_F64 ? 1023 : fmt == MC_D_FMT_F32 ? 127 : 15;
    int emin = 1 - emax;
    ulong sgn = neg ? (fmt == MC_D_FMT_F64 ? MC_D_SIGN : fmt == MC_D_FMT_F32 ? 0x80000000ul : 0x8000ul) : 0ul;
    ulong infb = (ulong)(2 * emax + 1) << mbits;
    bool away = mode == MC_RP ? !neg : mode == MC_RM ? neg : false;
    if (E > emax)
        return sgn | (mode == MC_RN || away ? infb : infb - 1ul);
    uint sh = (63u - mbits) + (uint)max(emin - E, 0);   // below emin: the subnormal grid
    ulong q;
    bool halfbit, rest;
    if (sh >= 64u) {
        q = 0ul;
        halfbit = sh == 64u && (sig >> 63) != 0ul;
        rest = sh > 64u || (sig << 1) != 0ul || sticky;
    } else {
        q = sig >> sh;
        ulong lost = sig << (64u - sh);
        halfbit = (lost >> 63) != 0ul;
        rest = (lost << 1) != 0ul || sticky;
    }
    ulong mag = E >= emin ? ((ulong)(E - emin) << mbits) + q : q;   // exponent field + fraction
    if (mode == MC_RN) {
        if (halfbit && (rest || (mag & 1ul) != 0ul))
            mag++;
    } else if ((halfbit || rest) && away) {
        mag++;   // reaches infinity only from the largest finite value: right
    }
    return sgn | mag;
}

// A NaN result from two operands: NVIDIA's choice (see the top).
MC_D_STEP ulong mc_d_nan2(ulong first, ulong second)
{
    return mc_d_quiet(mc_d_isnan(first) ? first : second);
}

MC_D_SLOW ulong mc_d_add_i(ulong a, ulong b, int mode)
{
    if (mc_d_isnan(a) || mc_d_isnan(b))
        return mc_d_nan2(b, a);
    bool na = (a & MC_D_SIGN) != 0ul, nb = (b & MC_D_SIGN) != 0ul;
    if (mc_d_isinf(a) || mc_d_isinf(b)) {
        if (mc_d_isinf(a) && mc_d_isinf(b) && na != nb)
            return MC_D_INVALID;
        return mc_d_isinf(a) ? a : b;
    }
    if (mc_d_iszero(a) || mc_d_iszero(b)) {
        if (!mc_d_iszero(a)) return a;
        if (!mc_d_iszero(b)) return b;
        return na == nb ? a : (mode == MC_RM ? MC_D_SIGN : 0ul);
    }
    if ((a & ~MC_D_SIGN) < (b & ~MC_D_SIGN)) {   // |a| >= |b| from here on
        ulong t = a; a = b; b = t;
        bool u = na; na = nb; nb = u;
    }
    int ea, eb;
    ulong A = mc_d_unpack(a, ea) << 10, B = mc_d_unpack(b, eb) << 10;   // leading ones at bit 62
    B = mc_shr_jam(B, (uint)(ea - eb));
    ulong S = na == nb ? A + B : A - B;
    if (S == 0ul)
        return mode == MC_RM ? MC_D_SIGN : 0ul;   // exact cancellation
    uint lz = mc_clz64(S);
    return mc_d_round(na, ea + 1 - (int)lz, S << lz, false, mode, MC_D_FMT_F64);
}

MC_D_SLOW ulong mc_d_sub_i(ulong a, ulong b, int mode)
{
    if (mc_d_isnan(a) || mc_d_isnan(b))
        return mc_d_nan2(b, a);   // b's NaN keeps its sign
    return mc_d_add_i(a, b ^ MC_D_SIGN, mode);
}

MC_D_SLOW ulong mc_d_mul_i(ulong a, ulong b, int mode)
{
    if (mc_d_isnan(a) || mc_d_isnan(b))
        return mc_d_nan2(b, a);
    ulong sgn = (a ^ b) & MC_D_SIGN;
    if (mc_d_isinf(a) || mc_d_isinf(b))
        return mc_d_iszero(a) || mc_d_iszero(b) ? MC_D_INVALID : sgn | MC_D_INF;
    if (mc_d_iszero(a) || mc_d_iszero(b))
        return sgn;
    int ea, eb;
    ulong ma = mc_d_unpack(a, ea) << 11, mb = mc_d_unpack(b, eb) << 11, lo;
    ulong hi = mc_d_mul128(ma, mb, lo);   // leading one at bit 127 or 126
    int E = ea + eb;
    if ((hi >> 63) != 0ul) {
        E++;
    } else {
        hi = (hi << 1) | (lo >> 63);
        lo <<= 1;
    }
    return mc_d_round(sgn != 0ul, E, hi, lo != 0ul, mode, MC_D_FMT_F64);
}

// ---- 128-bit helpers for fma: (hi, lo) pairs ----

MC_D_STEP void mc_shr128_jam(thread ulong &hi, thread ulong &lo, uint n)
{
    if (n == 0u) return;
    if (n >= 128u) {
        lo = (hi | lo) != 0ul ? 1ul : 0ul;
        hi = 0ul;
    } else if (n >= 64u) {
        ulong s = (n == 64u ? lo : (lo | (hi << (128u - n)))) != 0ul ? 1ul : 0ul;
        lo = (n == 64u ? hi : hi >> (n - 64u)) | s;
        hi = 0ul;
    } else {
        ulong s = (lo << (64u - n)) != 0ul ? 1ul : 0ul;
        lo = (lo >> n) | (hi << (64u - n)) | s;
        hi >>= n;
    }
}

MC_D_SLOW ulong mc_d_fma_i(ulong a, ulong b, ulong c, int mode)
{
    if (mc_d_isnan(a) || mc_d_isnan(b) || mc_d_isnan(c))
        return mc_d_quiet(mc_d_isnan(b) ? b : mc_d_isnan(c) ? c : a);   // f64_fma_nan_sat.ptx
    ulong sp = (a ^ b) & MC_D_SIGN;
    bool pinf = mc_d_isinf(a) || mc_d_isinf(b), pzero = mc_d_iszero(a) || mc_d_iszero(b);
    if (pinf) {
        if (pzero || (mc_d_isinf(c) && (c & MC_D_SIGN) != sp))
            return MC_D_INVALID;
        return sp | MC_D_INF;
    }
    if (mc_d_isinf(c))
        return c;
    if (pzero) {
        if (!mc_d_iszero(c)) return c;
        return sp == (c & MC_D_SIGN) ? c : (mode == MC_RM ? MC_D_SIGN : 0ul);
    }
    int ea, eb, ec = 0;
    ulong ma = mc_d_unpack(a, ea) << 10, mb = mc_d_unpack(b, eb) << 11, plo;
    ulong phi = mc_d_mul128(ma, mb, plo);   // |a·b| = P·2^(ea+eb-125), leading one at bit 125 or 124
    if (mc_d_iszero(c)) {
        uint lz = phi != 0ul ? mc_clz64(phi) : 64u;
        ulong sig = (phi << lz) | (lz ? plo >> (64u - lz) : 0ul);
        return mc_d_round(sp != 0ul, ea + eb + 2 - (int)lz, sig, (plo << lz) != 0ul, mode, MC_D_FMT_F64);
    }
    ulong chi = mc_d_unpack(c, ec) << 10, clo = 0ul;   // |c| = C·2^(ec-126), leading one at bit 126
    int sP = ea + eb - 125, sC = ec - 126, s;
    if (sP >= sC) {
        mc_shr128_jam(chi, clo, (uint)min(sP - sC, 200));
        s = sP;
    } else {
        mc_shr128_jam(phi, plo, (uint)min(sC - sP, 200));
        s = sC;
    }
    bool np = sp != 0ul, nc = (c & MC_D_SIGN) != 0ul, neg;
    ulong hi, lo;
    if (np == nc) {
        lo = plo + clo;
        hi = phi + chi + (lo < plo ? 1ul : 0ul);
        neg = np;
    } else if (phi > chi || (phi == chi && plo >= clo)) {
        lo = plo - clo;
        hi = phi - chi - (plo < clo ? 1ul : 0ul);
        neg = np;
    } else {
        lo = clo - plo;
        hi = chi - phi - (clo < plo ? 1ul : 0ul);
        neg = nc;
    }
    if (hi == 0ul && lo == 0ul)
        return mode == MC_RM ? MC_D_SIGN : 0ul;   // exact cancellation
    uint lz = hi != 0ul ? mc_clz64(hi) : 64u + mc_clz64(lo);
    ulong sig;
    bool sticky;
    if (lz >= 64u) {
        sig = lo << (lz - 64u);
        sticky = false;
    } else {
        sig = (hi << lz) | (lz ? lo >> (64u - lz) : 0ul);
        sticky = (lo << lz) != 0ul;
    }
    return mc_d_round(neg, s + 127 - (int)lz, sig, sticky, mode, MC_D_FMT_F64);
}

MC_D_SLOW ulong mc_d_div_i(ulong a, ulong b, int mode)
{
    if (mc_d_isnan(a) || mc_d_isnan(b))
        return mc_d_nan2(a, b);
    ulong sgn = (a ^ b) & MC_D_SIGN;
    if (mc_d_isinf(a))
        return mc_d_isinf(b) ? MC_D_INVALID : sgn | MC_D_INF;
    if (mc_d_isinf(b))
        return sgn;
    if (mc_d_iszero(b))
        return mc_d_iszero(a) ? MC_D_INVALID : sgn | MC_D_INF;
    if (mc_d_iszero(a))
        return sgn;
    int ea, eb;
    ulong ma = mc_d_unpack(a, ea), mb = mc_d_unpack(b, eb);
    int E = ea - eb;
    if (ma < mb) {
        ma <<= 1;
        E--;
    }
    // Long division, 11 quotient bits per step: the remainder stays below
    // mb < 2^53, so r << 11 fits.  56 bits: the leading one at bit 55.
    ulong q = 1ul, r = ma - mb;
    for (int k = 0; k < 5; k++) {
        r <<= 11;
        ulong d = r / mb;
        r -= d * mb;
        q = (q << 11) | d;
    }
    return mc_d_round(sgn != 0ul, E, q << 8, r != 0ul, mode, MC_D_FMT_F64);
}

MC_D_SLOW ulong mc_d_sqrt_i(ulong a, int mode)
{
    if (mc_d_isnan(a))
        return mc_d_quiet(a);
    if (mc_d_iszero(a))
        return a;
    if ((a & MC_D_SIGN) != 0ul)
        return MC_D_INVALID;
    if (mc_d_isinf(a))
        return a;
    int e;
    ulong m = mc_d_unpack(a, e);   // a = (m/2^52)·2^e
    if ((e & 1) != 0) {
        m <<= 1;   // (m/2^52) in [2, 4), e even
        e--;
    }
    // Digit by digit: two radicand bits in, one root bit out.  The radicand
    // is m/2^52 in [1, 4): its two integer bits, then 26 pairs of fraction
    // bits, then zeros; 55 root bits (the leading one at bit 54).
    ulong R = 0ul, rem = 0ul;
    for (int k = 0; k < 55; k++) {
        int at = 52 - 2 * k;   // the pair's lower bit, in m
        ulong pair = at >= 0 ? (m >> at) & 3ul : 0ul;
        rem = (rem << 2) | pair;
        ulong t = (R << 2) | 1ul;
        if (rem >= t) {
            rem -= t;
            R = (R << 1) | 1ul;
        } else {
            R <<= 1;
        }
    }
    return mc_d_round(false, e / 2, R << 9, rem != 0ul, mode, MC_D_FMT_F64);
}

// ---- comparisons, min/max ----

// An order-preserving unsigned key of a non-NaN f64 (-0 below +0, as
// min/max order them), and the key of the comparisons (-0 and +0 equal).
inline ulong mc_d_order_key(ulong x) { return (x & MC_D_SIGN) != 0ul ? ~x : x | MC_D_SIGN; }
inline ulong mc_d_key(ulong x) { return mc_d_iszero(x) ? MC_D_SIGN : mc_d_order_key(x); }

// The ordered comparisons (false with a NaN operand); the unordered
// forms are their negations, built by the emitter.  cmp: 0 eq, 1 lt, 2 le.
MC_D_SLOW bool mc_d_cmp_i(ulong a, ulong b, int cmp)
{
    if (mc_d_isnan(a) || mc_d_isnan(b)) return false;
    ulong ka = mc_d_key(a), kb = mc_d_key(b);
    return cmp == 0 ? ka == kb : cmp == 1 ? ka < kb : ka <= kb;
}

// min/max.f64 (PTX ISA 9.0 §9.7.3.10-11): a NaN operand is ignored
// unless both are NaN (then b's, quieted: an H200); -0 is below +0.
inline ulong mc_d_minmax(ulong a, ulong b, bool is_max)
{
    bool an = mc_d_isnan(a), bn = mc_d_isnan(b);
    if (an || bn)
        return an && bn ? mc_d_quiet(b) : an ? b : a;
    return (mc_d_order_key(b) < mc_d_order_key(a)) != is_max ? b : a;
}

// ---- conversions ----

// The magnitude of a finite f64 rounded to an integer in the given mode
// (0 rni, 1 rzi, 2 rmi, 3 rpi: the directions of rn, rz, rm, rp); big when
// |a| >= 2^64, where the caller saturates.
inline ulong mc_d_int_mag(ulong a, int mode, thread bool &big)
{
    big = false;
    if (mc_d_iszero(a)) return 0ul;
    int e;
    ulong m = mc_d_unpack(a, e);
    if (e >= 64) {
        big = true;
        return 0ul;
    }
    if (e >= 52) return m << (e - 52);
    uint sh = (uint)(52 - e);   // 1 ..: the fraction bits
    ulong q;
    bool halfbit, rest;
    if (sh > 53u) {
        q = 0ul; halfbit = false; rest = true;
    } else if (sh == 53u) {
        q = 0ul; halfbit = true; rest = (m & MC_D_FRAC) != 0ul;
    } else {
        q = m >> sh;
        ulong lost = m << (64u - sh);
        halfbit = (lost >> 63) != 0ul;
        rest = (lost << 1) != 0ul;
    }
    bool neg = (a & MC_D_SIGN) != 0ul;
    bool away = mode == MC_RP ? !neg : mode == MC_RM ? neg : false;
    if (mode == MC_RN ? halfbit && (rest || (q & 1ul) != 0ul) : (halfbit || rest) && away)
        q++;
    return q;
}

// NaN → integer of n bits, signed or not: the lowest signed value, 1 << (n - 1)
// (an H200: tests/ptx/cases/cvt_r?i_{s,u}{32,64}_f64.ptx, f64_nan_rules.ptx).
inline ulong mc_d_nan_int(int n) { return 1ul << (n - 1); }

// f64 → signed integer of n bits (8..64), saturating.
MC_D_SLOW ulong mc_d_to_sint_i(ulong a, int mode, int n)
{
    if (mc_d_isnan(a)) return mc_d_nan_int(n);
    bool neg = (a & MC_D_SIGN) != 0ul, big;
    ulong mag = mc_d_int_mag(a, mode, big);
    ulong lim = 1ul << (n - 1);   // |INT_MIN|
    if (neg)
        return big || mag >= lim ? (ulong)(-(long)lim) : (ulong)(-(long)mag);
    return big || mag >= lim ? lim - 1ul : mag;
}
MC_D_SLOW ulong mc_d_to_uint_i(ulong a, int mode, int n)
{
    if (mc_d_isnan(a)) return mc_d_nan_int(n);
    if ((a & MC_D_SIGN) != 0ul) return 0ul;   // negatives (rounded or not) saturate at 0
    bool big;
    ulong mag = mc_d_int_mag(a, mode, big);
    ulong max = n == 64 ? ~0ul : (1ul << n) - 1ul;
    return big || mag > max ? max : mag;
}

// An integer's magnitude v (sign neg) as f64, f32 or f16 bits, rounded.
MC_D_SLOW ulong mc_d_from_int_i(ulong v, bool neg, int mode, int fmt)
{
    if (v == 0ul) return 0ul;
    uint lz = mc_clz64(v);
    return mc_d_round(neg, 63 - (int)lz, v << lz, false, mode, fmt);
}

MC_D_SLOW ulong mc_d_from_sint_i(long v, int mode)
{
    return mc_d_from_int_i(v < 0 ? 0ul - (ulong)v : (ulong)v, v < 0, mode, MC_D_FMT_F64);
}

// .sat on an f64 result: NaN and negatives (-0 too) give +0, above 1.0 1.0.
inline ulong mc_d_sat(ulong a)
{
    if (mc_d_isnan(a) || (a & MC_D_SIGN) != 0ul) return 0ul;
    return a > 0x3ff0000000000000ul ? 0x3ff0000000000000ul : a;
}

// cvt.rXi.f64.f64: a rounded to an integral f64.
MC_D_SLOW ulong mc_d_rint_i(ulong a, int mode)
{
    if (mc_d_isnan(a)) return mc_d_quiet(a);
    if (((a >> 52) & 0x7fful) >= 1075ul) return a;   // inf, or no fraction bits
    bool big;
    ulong q = mc_d_int_mag(a, mode, big);
    return (a & MC_D_SIGN) | mc_d_from_int_i(q, false, MC_RN, MC_D_FMT_F64);   // exact: q < 2^53
}

// f64 → f32 or f16 (fmt), rounded.  A NaN keeps its sign and the top of
// its payload, quieted (an H200: cvt.rn.f32.f64 of 0x7ff4000000000001 is
// 0x7fe00000), unlike the f32 arithmetic's canonical NaN.
MC_D_SLOW ulong mc_d_narrow_i(ulong a, int mode, int fmt)
{
    bool neg = (a & MC_D_SIGN) != 0ul;
    uint mbits = fmt == MC_D_FMT_F32 ? 23u : 10u;
    ulong sgn = neg ? (fmt == MC_D_FMT_F32 ? 0x80000000ul : 0x8000ul) : 0ul;
    ulong infb = fmt == MC_D_FMT_F32 ? 0x7f800000ul : 0x7c00ul;
    if (mc_d_isnan(a)) return sgn | infb | (1ul << (mbits - 1u)) | ((a & MC_D_FRAC) >> (52u - mbits));
    if (mc_d_isinf(a)) return sgn | infb;
    if (mc_d_iszero(a)) return sgn;
    int e;
    ulong m = mc_d_unpack(a, e);
    return mc_d_round(neg, e, m << 11, false, mode, fmt);
}

// f32 (fmt 1) or f16 (fmt 2) bits → f64, exact.  A NaN keeps its sign and
// payload, quieted.
MC_D_SLOW ulong mc_d_widen_i(uint x, int fmt)
{
    uint mbits = fmt == MC_D_FMT_F32 ? 23u : 10u, ebits = fmt == MC_D_FMT_F32 ? 8u : 5u;
    uint emax = (1u << ebits) - 1u, bias = emax >> 1;
    ulong sgn = (ulong)((x >> (mbits + ebits)) & 1u) << 63;
    uint f = (x >> mbits) & emax, m = x & ((1u << mbits) - 1u);
    if (f == emax)
        return sgn | MC_D_INF | ((ulong)m << (52u - mbits)) | (m != 0u ? MC_D_QUIET : 0ul);
    if (f == 0u) {
        if (m == 0u) return sgn;
        uint sh = clz(m) - (31u - mbits);   // normalise: the leading one to bit mbits
        m = (m << sh) & ((1u << mbits) - 1u);
        f = 1u - sh;
        return sgn | ((ulong)((int)f - (int)bias + 1023) << 52) | ((ulong)m << (52u - mbits));
    }
    return sgn | ((ulong)(f - bias + 1023u) << 52) | ((ulong)m << (52u - mbits));
}

// ---- The operations ----
//
// Apple GPUs (no __MC_SOFT_HOST_F64): the integer forms above.  The
// software device: the CPU's binary64 through its metal_stdlib
// (__mc_f64_*), bit for bit the integer forms' results:
//   * round to nearest even is what the host computes; a NaN result is
//     replaced by NVIDIA's (mc_dh_nan: the integer forms' operand order,
//     else 0xfff8000000000000);
//   * rz, rm, rp: the nearest result r and the sign of the exact error,
//     from an error-free transformation (TwoSum for add and sub, an fma
//     residual for mul, div and sqrt: exact where no underflow can occur),
//     then r or its neighbour (mc_dh_direct).  What that cannot decide
//     goes to the integer forms: a zero, infinite or NaN r, operands near
//     overflow, results near underflow; fma in a directed mode always
//     (its error is not one double).
//   * conversions and comparisons likewise (f16 stays integer).
#ifdef __MC_SOFT_HOST_F64

#define MC_DH_TINY 0x0380000000000000ul   // 2^-967: below, an error term may be inexact
#define MC_DH_HUGE 0x7fc0000000000000ul   // 2^1021: above, TwoSum may overflow

// A NaN result r replaced by NVIDIA's: the first NaN of x, y, z, quieted,
// or the invalid operation's NaN.  The test is the FPU's (r != r) and the
// join a double's (the shim's __mc_f64_unless_nan), so that a chain of
// operations keeps its values in floating-point registers; the
// replacement is out of line.
inline ulong mc_dh_nan_pick(ulong x, ulong y, ulong z)
{
    return mc_d_isnan(x) ? mc_d_quiet(x) : mc_d_isnan(y) ? mc_d_quiet(y) : mc_d_isnan(z) ? mc_d_quiet(z) : MC_D_INVALID;
}

MC_D_STEP ulong mc_dh_nan(ulong r, ulong x, ulong y, ulong z)
{
    return __mc_f64_unless_nan<mc_dh_nan_pick>(r, x, y, z);
}

// The sign of an exact error term e (bits): 1, -1, or 0 when exact.
MC_D_STEP int mc_dh_sign(ulong e) { return mc_d_iszero(e) ? 0 : (e & MC_D_SIGN) != 0ul ? -1 : 1; }

// The result in directed mode `mode` of an operation whose exact value v
// lies above r (up 1), below it (-1) or at it (0); r finite, nonzero, of
// a format whose sign bit is sgn.  No tie is possible, and v lies within
// half a unit of r, so the answer is r or its neighbour on v's side
// (the largest finite value's neighbour away from zero being infinity).
MC_D_STEP ulong mc_dh_direct(ulong r, ulong sgn, int up, int mode)
{
    bool neg = (r & sgn) != 0ul;
    bool upward = mode == MC_RP ? true : mode == MC_RM ? false : neg;   // rz: toward zero
    if (up == 0 || (up > 0) != upward)
        return r;
    return (up > 0) != neg ? r + 1ul : r - 1ul;   // magnitude one unit up, or down
}

MC_D_SLOW ulong mc_dh_add_dir(ulong a, ulong b, int mode)
{
    ulong s = __mc_f64_add(a, b), m = s & ~MC_D_SIGN;
    if (m == 0ul || m >= MC_D_INF || (a & ~MC_D_SIGN) >= MC_DH_HUGE || (b & ~MC_D_SIGN) >= MC_DH_HUGE)
        return mc_d_add_i(a, b, mode);
    ulong bv = __mc_f64_sub(s, a);   // TwoSum (Knuth): a + b = s + e exactly
    ulong e = __mc_f64_add(__mc_f64_sub(a, __mc_f64_sub(s, bv)), __mc_f64_sub(b, bv));
    return mc_dh_direct(s, MC_D_SIGN, mc_dh_sign(e), mode);
}

MC_D_SLOW ulong mc_dh_mul_dir(ulong a, ulong b, int mode)
{
    ulong p = __mc_f64_mul(a, b), m = p & ~MC_D_SIGN;
    if (m < MC_DH_TINY || m >= MC_D_INF)
        return mc_d_mul_i(a, b, mode);
    return mc_dh_direct(p, MC_D_SIGN, mc_dh_sign(__mc_f64_fma(a, b, p ^ MC_D_SIGN)), mode);
}

MC_D_SLOW ulong mc_dh_div_dir(ulong a, ulong b, int mode)
{
    ulong q = __mc_f64_div(a, b), m = q & ~MC_D_SIGN;
    if (m < MC_DH_TINY || m >= MC_D_INF || (a & ~MC_D_SIGN) < MC_DH_TINY)
        return mc_d_div_i(a, b, mode);
    int r = mc_dh_sign(__mc_f64_fma(q ^ MC_D_SIGN, b, a));   // a - q·b: a/b - q has its sign times b's
    return mc_dh_direct(q, MC_D_SIGN, (b & MC_D_SIGN) != 0ul ? -r : r, mode);
}

MC_D_SLOW ulong mc_dh_sqrt_dir(ulong a, int mode)
{
    ulong s = __mc_f64_sqrt(a);
    if (a < MC_DH_TINY || a >= MC_D_INF)   // zero, tiny, inf, NaN, negative
        return mc_d_sqrt_i(a, mode);
    return mc_dh_direct(s, MC_D_SIGN, mc_dh_sign(__mc_f64_fma(s ^ MC_D_SIGN, s, a)), mode);
}

inline ulong mc_d_add(ulong a, ulong b, int mode)
{
    if (mode != MC_RN) return mc_dh_add_dir(a, b, mode);
#ifdef __MC_SOFT_F64_NV_NAN
    return __mc_f64_add_nv(a, b);
#else
    return mc_dh_nan(__mc_f64_add(a, b), b, a, a);
#endif
}

inline ulong mc_d_sub(ulong a, ulong b, int mode)
{
    if (mode != MC_RN)   // b's NaN not negated
        return mc_d_isnan(b) ? mc_d_sub_i(a, b, mode) : mc_dh_add_dir(a, b ^ MC_D_SIGN, mode);
    return mc_dh_nan(__mc_f64_sub(a, b), b, a, a);
}

inline ulong mc_d_mul(ulong a, ulong b, int mode)
{
    if (mode != MC_RN) return mc_dh_mul_dir(a, b, mode);
#ifdef __MC_SOFT_F64_NV_NAN
    return __mc_f64_mul_nv(a, b);
#else
    return mc_dh_nan(__mc_f64_mul(a, b), b, a, a);
#endif
}

inline ulong mc_d_div(ulong a, ulong b, int mode)
{
    if (mode != MC_RN) return mc_dh_div_dir(a, b, mode);
#ifdef __MC_SOFT_F64_NV_NAN
    return __mc_f64_div_nv(a, b);
#else
    return mc_dh_nan(__mc_f64_div(a, b), a, b, b);
#endif
}

inline ulong mc_d_sqrt(ulong a, int mode)
{
    if (mode != MC_RN) return mc_dh_sqrt_dir(a, mode);
    return mc_dh_nan(__mc_f64_sqrt(a), a, a, a);
}

inline ulong mc_d_fma(ulong a, ulong b, ulong c, int mode)
{
    if (mode != MC_RN) return mc_d_fma_i(a, b, c, mode);
    return mc_dh_nan(__mc_f64_fma(a, b, c), b, c, a);
}

inline bool mc_d_cmp(ulong a, ulong b, int cmp)
{
    return cmp == 0 ? __mc_f64_eq(a, b) : cmp == 1 ? __mc_f64_lt(a, b) : __mc_f64_le(a, b);
}

// An integral f64: a rounded in mode (0 rni, 1 rzi, 2 rmi, 3 rpi).
MC_D_STEP ulong mc_dh_integral(ulong a, int mode)
{
    return mode == MC_RN ? __mc_f64_rint(a) : mode == MC_RZ ? __mc_f64_trunc(a)
         : mode == MC_RM ? __mc_f64_floor(a) : __mc_f64_ceil(a);
}

inline ulong mc_d_rint(ulong a, int mode)
{
    return mc_d_isnan(a) ? mc_d_quiet(a) : mc_dh_integral(a, mode);
}

#define MC_DH_2P62 0x43d0000000000000ul   // 2^62: a rounded magnitude below it fits a long

inline ulong mc_d_to_sint(ulong a, int mode, int n)
{
    if ((a & ~MC_D_SIGN) >= MC_DH_2P62) return mc_d_to_sint_i(a, mode, n);   // NaN, inf, large
    long v = __mc_f64_to_s64(mc_dh_integral(a, mode));
    if (n == 64) return (ulong)v;
    long lim = 1l << (n - 1);
    return (ulong)(v >= lim ? lim - 1l : v < -lim ? -lim : v);
}

inline ulong mc_d_to_uint(ulong a, int mode, int n)
{
    if ((a & ~MC_D_SIGN) >= MC_DH_2P62) return mc_d_to_uint_i(a, mode, n);
    if ((a & MC_D_SIGN) != 0ul) return 0ul;   // negatives (rounded or not) saturate at 0
    ulong v = (ulong)__mc_f64_to_s64(mc_dh_integral(a, mode));
    ulong max = n == 64 ? ~0ul : (1ul << n) - 1ul;
    return v > max ? max : v;
}

// Below 2^53 every integer is a double: exact in every mode.
inline ulong mc_d_from_int(ulong v, bool neg, int mode, int fmt)
{
    if (fmt != MC_D_FMT_F64 || v >= (1ul << 53)) return mc_d_from_int_i(v, neg, mode, fmt);
    return v == 0ul ? 0ul : __mc_f64_from_u64(v) | (neg ? MC_D_SIGN : 0ul);
}

inline ulong mc_d_from_sint(long v, int mode)
{
    if (v >= (1l << 53) || v <= -(1l << 53)) return mc_d_from_sint_i(v, mode);
    return __mc_f64_from_s64(v);
}

MC_D_SLOW ulong mc_dh_narrow_dir(ulong a, int mode)
{
    if (mc_d_isnan(a) || mc_d_isinf(a) || mc_d_iszero(a))
        return mc_d_narrow_i(a, mode, MC_D_FMT_F32);
    ulong f = (ulong)__mc_f64_to_f32(a);
    if ((f & 0x7fffffffu) == 0x7f800000u)   // overflowed: rz, rm, rp may want the largest float
        return mc_d_narrow_i(a, mode, MC_D_FMT_F32);
    ulong back = __mc_f32_to_f64((uint)f);   // exact
    int up = back == a ? 0 : __mc_f64_lt(back, a) ? 1 : -1;
    return mc_dh_direct(f, 0x80000000ul, up, mode);
}

// f64 → f32: the host's conversion; a NaN keeps its sign and the top of its
// payload, quieted (as mc_d_narrow_i).  f16: the integer form.
inline ulong mc_d_narrow(ulong a, int mode, int fmt)
{
    if (fmt != MC_D_FMT_F32) return mc_d_narrow_i(a, mode, fmt);
    if (mode != MC_RN) return mc_dh_narrow_dir(a, mode);
    ulong nan = ((a >> 32) & 0x80000000ul) | 0x7fc00000ul | ((a & MC_D_FRAC) >> 29);
    return mc_d_isnan(a) ? nan : (ulong)__mc_f64_to_f32(a);
}

inline ulong mc_d_widen(uint x, int fmt)
{
    if (fmt != MC_D_FMT_F32) return mc_d_widen_i(x, fmt);
    ulong nan = ((ulong)(x & 0x80000000u) << 32) | MC_D_INF | MC_D_QUIET | ((ulong)(x & 0x7fffffu) << 29);
    return (x & 0x7fffffffu) > 0x7f800000u ? nan : __mc_f32_to_f64(x);
}

#else

inline ulong mc_d_add(ulong a, ulong b, int mode) { return mc_d_add_i(a, b, mode); }
inline ulong mc_d_sub(ulong a, ulong b, int mode) { return mc_d_sub_i(a, b, mode); }
inline ulong mc_d_mul(ulong a, ulong b, int mode) { return mc_d_mul_i(a, b, mode); }
inline ulong mc_d_div(ulong a, ulong b, int mode) { return mc_d_div_i(a, b, mode); }
inline ulong mc_d_sqrt(ulong a, int mode) { return mc_d_sqrt_i(a, mode); }
inline ulong mc_d_fma(ulong a, ulong b, ulong c, int mode) { return mc_d_fma_i(a, b, c, mode); }
inline bool mc_d_cmp(ulong a, ulong b, int cmp) { return mc_d_cmp_i(a, b, cmp); }
inline ulong mc_d_rint(ulong a, int mode) { return mc_d_rint_i(a, mode); }
inline ulong mc_d_to_sint(ulong a, int mode, int n) { return mc_d_to_sint_i(a, mode, n); }
inline ulong mc_d_to_uint(ulong a, int mode, int n) { return mc_d_to_uint_i(a, mode, n); }
inline ulong mc_d_from_int(ulong v, bool neg, int mode, int fmt) { return mc_d_from_int_i(v, neg, mode, fmt); }
inline ulong mc_d_from_sint(long v, int mode) { return mc_d_from_sint_i(v, mode); }
inline ulong mc_d_narrow(ulong a, int mode, int fmt) { return mc_d_narrow_i(a, mode, fmt); }
inline ulong mc_d_widen(uint x, int fmt) { return mc_d_widen_i(x, fmt); }

#endif

inline ulong mc_d_rcp(ulong a, int mode) { return mc_d_div(0x3ff0000000000000ul, a, mode); }

// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 are, on an H200, one
// special-function-unit operation on the upper 32 bits of the operand: the
// lower 32 are ignored and those of the result are zero (a 20-bit
// fraction), a subnormal operand or result is flushed, and a NaN result is
// 0x7fffffff00000000.  Measured over every upper word of [1, 4) (2^21
// operands, and 2^20 random doubles for the rest): the H200's fraction is
// the exact result truncated to 20 bits for 93% (rcp) and 94% (rsqrt) of
// operands, one unit of 2^-20 above or below it for the rest (the unit's
// own approximation, which is not documented).  Here: the exact result
// truncated, so within one unit of the H200's.
#define MC_D_HI 0xffffffff00000000ul
#define MC_D_SFU_NAN 0x7fffffff00000000ul

inline ulong mc_d_sfu_operand(ulong a)
{
    if (((a >> 52) & 0x7fful) == 0ul) return a & MC_D_SIGN;   // .ftz
    return a & MC_D_HI;
}
inline ulong mc_d_sfu_result(ulong r)
{
    if (mc_d_isnan(r)) return MC_D_SFU_NAN;
    if (((r >> 52) & 0x7fful) == 0ul) return r & MC_D_SIGN;   // .ftz
    return r & MC_D_HI;
}

inline ulong mc_d_rcp_approx_ftz(ulong a)
{
    return mc_d_sfu_result(mc_d_rcp(mc_d_sfu_operand(a), MC_RZ));
}

// Whether m^2 * x > 1 (cmp > 0), == 1 (0) or < 1 (-1), for m = M·2^em and
// x = X·2^ex, M < 2^54 and X < 2^53: the product M²X, up to 161 bits, in
// three limbs against the power of two 2^-(2em + ex).
inline int mc_d_sq_times_cmp1(ulong M, int em, ulong X, int ex)
{
    ulong m0, m1 = mc_d_mul128(M, M, m0);   // M² = m1:m0
    ulong p0, c0 = mc_d_mul128(m0, X, p0);
    ulong t1, p2 = mc_d_mul128(m1, X, t1);
    ulong p1 = t1 + c0;
    p2 += p1 < c0 ? 1ul : 0ul;               // M²X = p2:p1:p0
    int top = p2 != 0ul ? 191 - (int)mc_clz64(p2) : p1 != 0ul ? 127 - (int)mc_clz64(p1) : 63 - (int)mc_clz64(p0);
    int t = -(2 * em + ex);
    if (top != t)
        return top > t ? 1 : -1;
    bool rest = top >= 128 ? (p2 << (192 - top)) != 0ul || p1 != 0ul || p0 != 0ul
              : top >= 64 ? (p1 << (128 - top)) != 0ul || p0 != 0ul : (p0 << (64 - top)) != 0ul;
    return rest ? 1 : 0;
}

// rsqrt.approx.f64 (without .ftz): an H200 returns 1/sqrt(a) correctly
// rounded for 99.94% of 78,744 random positive normal operands
// (tests/cuda/f64_math.cu: every one it tries), so this is the correctly
// rounded value: y0 = rcp(sqrt(a)) is within 1.5 ulp, so the nearest
// double is y0 or a neighbour, and the midpoints on either side of y0
// decide (1/sqrt(a) is never a midpoint).  truncate: the largest double
// not above 1/sqrt(a) instead (for .ftz).
inline ulong mc_d_rsqrt_exact(ulong a, bool truncate)
{
    if (mc_d_isnan(a)) return mc_d_quiet(a);
    if (mc_d_iszero(a)) return (a & MC_D_SIGN) | MC_D_INF;
    if ((a & MC_D_SIGN) != 0ul) return MC_D_INVALID;
    if (mc_d_isinf(a)) return 0ul;
    ulong y0 = mc_d_rcp(mc_d_sqrt(a, MC_RN), MC_RN);   // a normal double: 2^-512 .. 2^537
    int ex, ey;
    ulong X = mc_d_unpack(a, ex);
    ex -= 52;
    ulong Y = mc_d_unpack(y0 - 1ul, ey);   // the midpoint below y0: (2Y + 1)·2^(ey - 53)
    if (mc_d_sq_times_cmp1(2ul * Y + 1ul, ey - 53, X, ex) > 0)
        y0 -= 1ul;
    else if (mc_d_sq_times_cmp1(2ul * mc_d_unpack(y0, ey) + 1ul, ey - 53, X, ex) < 0)
        y0 += 1ul;   // the midpoint above
    if (truncate) {
        Y = mc_d_unpack(y0, ey);
        if (mc_d_sq_times_cmp1(Y, ey - 52, X, ex) > 0)
            y0 -= 1ul;   // rounded up: the double below is the truncation
    }
    return y0;
}

inline ulong mc_d_rsqrt_approx(ulong a) { return mc_d_rsqrt_exact(a, false); }

inline ulong mc_d_rsqrt_approx_ftz(ulong a)
{
    a = mc_d_sfu_operand(a);
    if ((a & MC_D_SIGN) != 0ul && !mc_d_iszero(a)) return MC_D_SFU_NAN;
    return mc_d_sfu_result(mc_d_rsqrt_exact(a, true));
}
