// metalcuda MSL prelude: floating-point rules (min/max, float to integer).

// min/max: a NaN operand is ignored; two NaNs give the canonical NaN;
// -0.0 is less than +0.0.
inline uint mc_min_f32(uint a, uint b)
{
    if (mc_isnan(a)) return mc_isnan(b) ? 0x7fffffffu : b;
    if (mc_isnan(b)) return a;
    float fa = mc_f(a), fb = mc_f(b);
    if (fa == fb) return a | b;
    return fa < fb ? a : b;
}
inline uint mc_max_f32(uint a, uint b)
{
    if (mc_isnan(a)) return mc_isnan(b) ? 0x7fffffffu : b;
    if (mc_isnan(b)) return a;
    float fa = mc_f(a), fb = mc_f(b);
    if (fa == fb) return a & b;
    return fa > fb ? a : b;
}
inline ushort mc_min_f16(ushort a, ushort b)
{
    if (mc_isnan16(a)) return mc_isnan16(b) ? (ushort)0x7fffu : b;
    if (mc_isnan16(b)) return a;
    float fa = mc_h2f(a), fb = mc_h2f(b);
    if (fa == fb) return (ushort)(a | b);
    return fa < fb ? a : b;
}
inline ushort mc_max_f16(ushort a, ushort b)
{
    if (mc_isnan16(a)) return mc_isnan16(b) ? (ushort)0x7fffu : b;
    if (mc_isnan16(b)) return a;
    float fa = mc_h2f(a), fb = mc_h2f(b);
    if (fa == fb) return (ushort)(a & b);
    return fa > fb ? a : b;
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

