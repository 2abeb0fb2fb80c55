// metalcuda MSL prelude: floating-point rules (min/max, 16-bit lanes, bf16 bits, float to integer).

// PTX min/max with every modifier, on f32 (fmt 0), f16 (1) and bf16 (2)
// bits (PTX ISA 9.0 §9.7.3.10-11): a NaN operand is ignored unless both
// are NaN (canonical NaN), or with .NaN any NaN gives the canonical NaN;
// -0.0 is below +0.0; .xorsign.abs takes the min/max of |a| and |b| and
// gives it the sign sign(a) ^ sign(b), except on a NaN result (an H200
// agrees: tests/ptx/cases/min_xorsign_abs_f32.ptx).  The order is
// compared on integer keys, so subnormals never reach the FPU.
inline uint mc_fkey(uint x) { return (x & 0x80000000u) != 0u ? ~x : x | 0x80000000u; }
inline uint mc_minmax(uint a, uint b, int fmt, bool is_max, bool nan_mode, bool xorsign)
{
    uint sgn = fmt == 0 ? 0x80000000u : 0x8000u, mag = sgn - 1u;
    uint infb = fmt == 0 ? 0x7f800000u : fmt == 1 ? 0x7c00u : 0x7f80u, sh = fmt == 0 ? 0u : 16u;
    uint x = xorsign ? a & mag : a, y = xorsign ? b & mag : b;
    bool xn = (x & mag) > infb, yn = (y & mag) > infb;
    uint r;
    if (xn || yn)
        r = nan_mode || (xn && yn) ? mag : xn ? y : x;   // mag is the canonical NaN
    else
        r = (mc_fkey(y << sh) < mc_fkey(x << sh)) != is_max ? y : x;
    if (xorsign && (r & mag) <= infb)
        r |= (a ^ b) & sgn;
    return r;
}

// ---- 16-bit lanes: f16x2 and bf16x2 hold two (low half first) ----

inline ushort mc_lo16(uint x) { return (ushort)(x & 0xffffu); }
inline ushort mc_hi16(uint x) { return (ushort)(x >> 16); }
inline uint mc_pack16(ushort lo, ushort hi) { return (uint)lo | ((uint)hi << 16); }

// bf16: the upper half of an f32; same NaN and sign rules as f16, with
// integer tests only (bf16 subnormals are f32 subnormals).
inline bool mc_isnan_bf16(ushort x) { return (x & 0x7fffu) > 0x7f80u; }
inline ushort mc_abs_bf16(ushort x) { return mc_isnan_bf16(x) ? (ushort)0x7fffu : (ushort)(x & 0x7fffu); }
inline ushort mc_neg_bf16(ushort x) { return mc_isnan_bf16(x) ? (ushort)0x7fffu : (ushort)(x ^ 0x8000u); }
inline ushort mc_sat_bf16(ushort x)
{
    if (mc_isnan_bf16(x) || (x & 0x8000u) != 0u) return (ushort)0u;   // NaN, negatives and -0 → +0
    return x >= 0x3f80u ? (ushort)0x3f80u : x;
}

// ---- conversions float → integer: round, then clamp; NaN gives 0 ----

inline float mc_round_int(float x, int mode)  // 0 rni, 1 rzi, 2 rmi, 3 rpi
{
    return mode == 0 ? rint(x) : mode == 1 ? trunc(x) : mode == 2 ? floor(x) : ceil(x);
}
inline uint mc_f2s32(float x)
{
    if (isnan(x)) return 0u;
    if (x >= 2147483648.0f) return 0x7fffffffu;
    if (x < -2147483648.0f) return 0x80000000u;
    return as_type<uint>((int)x);
}
inline uint mc_f2u32(float x)
{
    if (isnan(x) || x <= 0.0f) return 0u;
    if (x >= 4294967296.0f) return 0xffffffffu;
    return (uint)x;
}
// NaN → 64-bit integer is 0x8000000000000000, signed or not (an H200),
// while NaN → 32-bit integer is 0.
inline ulong mc_f2s64(float x)
{
    if (isnan(x)) return 0x8000000000000000ul;
    if (x >= 9223372036854775808.0f) return 0x7ffffffffffffffful;
    if (x < -9223372036854775808.0f) return 0x8000000000000000ul;
    return as_type<ulong>((long)x);
}
inline ulong mc_f2u64(float x)
{
    if (isnan(x)) return 0x8000000000000000ul;
    if (x <= 0.0f) return 0ul;
    if (x >= 18446744073709551616.0f) return 0xfffffffffffffffful;
    return (ulong)x;
}
inline uint mc_f2s_small(float x, int lo, int hi)
{
    if (isnan(x)) return 0u;
    if (x <= (float)lo) return as_type<uint>(lo);
    if (x >= (float)hi) return as_type<uint>(hi);
    return as_type<uint>((int)x);
}
inline uint mc_f2u_small(float x, uint hi)
{
    if (isnan(x) || x <= 0.0f) return 0u;
    if (x >= (float)hi) return hi;
    return (uint)x;
}


// ---- fp8 (e4m3, e5m2; sm_89 cvt, build_float.c cvt_fp8) ----
// f32 bits to e4m3 (bias 7, 3 fraction bits, no infinity, NaN 0x7f,
// largest 448 = 0x7e) or e5m2 (bias 15, 2 fraction bits, f16's top byte),
// to nearest even.  sat (.satfinite): beyond the largest finite value,
// infinities included, the largest of the sign; else e4m3 overflows to
// NaN and e5m2 to infinity.  relu: a negative result is +0.  NaN: 0x7f.
inline uint mc_f2f8(uint x, bool e4m3, bool sat, bool relu)
{
    uint s = (x >> 24) & 0x80u, a = x & 0x7fffffffu;
    uint mb = e4m3 ? 3u : 2u, bias = e4m3 ? 7u : 15u, maxf = e4m3 ? 0x7eu : 0x7bu;
    if (a > 0x7f800000u)
        return 0x7fu;
    if (relu && s != 0u)
        return 0u;
    uint over = sat ? maxf : e4m3 ? 0x7fu : 0x7cu;
    if (a == 0x7f800000u)
        return s | over;
    int e = (int)(a >> 23) - 127, emin = 1 - (int)bias;
    if ((a >> 23) == 0u)
        return s;   // an f32 subnormal is far below the smallest fp8
    uint sig = (a & 0x7fffffu) | 0x800000u;
    int shift = e < emin ? (emin - (int)mb) - (e - 23) : 23 - (int)mb;
    if (shift > 25)
        return s;
    uint q = sig >> (uint)shift, rem = sig & ((1u << (uint)shift) - 1u), half = 1u << (uint)(shift - 1);
    if (rem > half || (rem == half && (q & 1u) != 0u))
        q++;
    if (e < emin)   // subnormal (q == 1 << mb is the smallest normal's encoding)
        return s | q;
    if (q == 2u << mb) {
        q >>= 1;
        e++;
    }
    uint bits = (uint)(e + (int)bias) << mb | (q & ((1u << mb) - 1u));
    return s | (bits > maxf ? over : bits);
}

// e4m3 / e5m2 to f16 bits, exactly; relu: a negative result +0 (a NaN
// stays NaN: 0x7fff).
inline ushort mc_f82h(uint b, bool e4m3, bool relu)
{
    uint s = (b & 0x80u) << 8, E, M, h = 0u;
    if (!e4m3) {
        h = (b & 0xffu) << 8;
        if ((h & 0x7fffu) > 0x7c00u)
            return (ushort)0x7fffu;
    } else {
        E = (b >> 3) & 15u;
        M = b & 7u;
        if (E == 15u && M == 7u)
            return (ushort)0x7fffu;
        if (E == 0u) {   // M * 2^-9: an f16 normal 2^(p - 9) (M / 2^p), or zero
            uint p = M >= 4u ? 2u : M >= 2u ? 1u : 0u;
            h = M == 0u ? s : s | (p + 6u) << 10 | ((M << (10u - p)) & 0x3ffu);
        } else {
            h = s | (E + 8u) << 10 | M << 7;
        }
    }
    if (relu && (h & 0x8000u) != 0u)
        return (ushort)0u;
    return (ushort)h;
}
