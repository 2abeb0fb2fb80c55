// metalcuda MSL prelude: integer rules.

// ---- integer division ----
// By zero, quotient and remainder are all ones, signed or not; INT_MIN / -1
// wraps to INT_MIN with remainder 0 (measured on an H200: tests/ptx/cases).

inline uint mc_div_u32(uint a, uint b) { return b == 0u ? 0xffffffffu : a / b; }
inline uint mc_rem_u32(uint a, uint b) { return b == 0u ? 0xffffffffu : a % b; }
inline ulong mc_div_u64(ulong a, ulong b) { return b == 0ul ? 0xfffffffffffffffful : a / b; }
inline ulong mc_rem_u64(ulong a, ulong b) { return b == 0ul ? 0xfffffffffffffffful : a % b; }
inline uint mc_div_s32(uint a, uint b)
{
    int x = as_type<int>(a), y = as_type<int>(b);
    if (y == 0) return 0xffffffffu;
    if (y == -1) return 0u - a;
    return as_type<uint>(x / y);
}
inline uint mc_rem_s32(uint a, uint b)
{
    int x = as_type<int>(a), y = as_type<int>(b);
    if (y == 0) return 0xffffffffu;
    if (y == -1) return 0u;
    return as_type<uint>(x % y);
}
inline ulong mc_div_s64(ulong a, ulong b)
{
    long x = as_type<long>(a), y = as_type<long>(b);
    if (y == 0) return 0xfffffffffffffffful;
    if (y == -1) return 0ul - a;
    return as_type<ulong>(x / y);
}
inline ulong mc_rem_s64(ulong a, ulong b)
{
    long x = as_type<long>(a), y = as_type<long>(b);
    if (y == 0) return 0xfffffffffffffffful;
    if (y == -1) return 0ul;
    return as_type<ulong>(x % y);
}
inline ushort mc_div_u16(ushort a, ushort b) { return b == 0 ? (ushort)0xffffu : (ushort)(a / b); }
inline ushort mc_rem_u16(ushort a, ushort b) { return b == 0 ? (ushort)0xffffu : (ushort)(a % b); }
inline ushort mc_div_s16(ushort a, ushort b)
{
    int x = (int)as_type<short>(a), y = (int)as_type<short>(b);
    if (y == 0) return (ushort)0xffffu;
    return (ushort)(uint)(x / y);
}
inline ushort mc_rem_s16(ushort a, ushort b)
{
    int x = (int)as_type<short>(a), y = (int)as_type<short>(b);
    if (y == 0) return (ushort)0xffffu;
    return (ushort)(uint)(x % y);
}

// ---- multiplication ----

inline ulong mc_mulhi_u64(ulong a, ulong b)
{
    ulong al = a & 0xfffffffful, ah = a >> 32, bl = b & 0xfffffffful, bh = b >> 32;
    ulong ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    ulong mid = (ll >> 32) + (lh & 0xfffffffful) + (hl & 0xfffffffful);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
inline ulong mc_mulhi_s64(ulong a, ulong b)
{
    ulong hi = mc_mulhi_u64(a, b);
    if (as_type<long>(a) < 0) hi -= b;
    if (as_type<long>(b) < 0) hi -= a;
    return hi;
}
// mul24: the 48-bit product of the low 24 bits (sign-extended for .s32).
inline ulong mc_mul24_prod(uint a, uint b, bool is_signed)
{
    if (is_signed) {
        long x = (long)(as_type<int>(a << 8) >> 8), y = (long)(as_type<int>(b << 8) >> 8);
        return as_type<ulong>(x * y);
    }
    return (ulong)(a & 0xffffffu) * (ulong)(b & 0xffffffu);
}
inline uint mc_mul24_lo(uint a, uint b, bool s) { return (uint)mc_mul24_prod(a, b, s); }
inline uint mc_mul24_hi(uint a, uint b, bool s) { return (uint)(mc_mul24_prod(a, b, s) >> 16); }

// Saturating s32 add (add.sat.s32, mad.hi.sat.s32).
inline uint mc_add_sat_s32(uint a, uint b)
{
    long r = (long)as_type<int>(a) + (long)as_type<int>(b);
    if (r > 2147483647l) r = 2147483647l;
    if (r < -2147483648l) r = -2147483648l;
    return as_type<uint>((int)r);
}
inline uint mc_sub_sat_s32(uint a, uint b)
{
    long r = (long)as_type<int>(a) - (long)as_type<int>(b);
    if (r > 2147483647l) r = 2147483647l;
    if (r < -2147483648l) r = -2147483648l;
    return as_type<uint>((int)r);
}

// ---- bit fields ----

inline uint mc_bfe_u32(uint a, uint pos, uint len)
{
    pos &= 0xffu; len &= 0xffu;
    if (len == 0u || pos >= 32u) return 0u;
    uint v = a >> pos;
    return len >= 32u ? v : v & ((1u << len) - 1u);
}
// bfe.s: bit i of the result is a[pos+i] for i < len while pos+i is inside
// a, and the sign bit a[min(pos+len-1, msb)] elsewhere (PTX ISA, bfe).
inline uint mc_bfe_s32(uint a, uint pos, uint len)
{
    pos &= 0xffu; len &= 0xffu;
    if (len == 0u) return 0u;
    uint sign = (a >> min(pos + len - 1u, 31u)) & 1u;
    if (pos >= 32u) return sign ? 0xffffffffu : 0u;
    uint v = as_type<uint>(as_type<int>(a) >> pos);   // past the top: a[31], the sign here
    if (pos + len - 1u < 31u) {
        uint mask = (1u << len) - 1u;
        v = sign ? (v | ~mask) : (v & mask);
    }
    return v;
}
inline ulong mc_bfe_u64(ulong a, uint pos, uint len)
{
    pos &= 0xffu; len &= 0xffu;
    if (len == 0u || pos >= 64u) return 0ul;
    ulong v = a >> pos;
    return len >= 64u ? v : v & ((1ul << len) - 1ul);
}
inline ulong mc_bfe_s64(ulong a, uint pos, uint len)
{
    pos &= 0xffu; len &= 0xffu;
    if (len == 0u) return 0ul;
    ulong sign = (a >> min(pos + len - 1u, 63u)) & 1ul;
    if (pos >= 64u) return sign ? 0xfffffffffffffffful : 0ul;
    ulong v = as_type<ulong>(as_type<long>(a) >> pos);
    if (pos + len - 1u < 63u) {
        ulong mask = (1ul << len) - 1ul;
        v = sign ? (v | ~mask) : (v & mask);
    }
    return v;
}
inline uint mc_bfi_b32(uint a, uint b, uint pos, uint len)
{
    pos &= 0xffu; len &= 0xffu;
    if (len == 0u || pos >= 32u) return b;
    uint mask = (len >= 32u ? 0xffffffffu : (1u << len) - 1u) << pos;
    return (b & ~mask) | ((a << pos) & mask);
}
inline ulong mc_bfi_b64(ulong a, ulong b, uint pos, uint len)
{
    pos &= 0xffu; len &= 0xffu;
    if (len == 0u || pos >= 64u) return b;
    ulong mask = (len >= 64u ? 0xfffffffffffffffful : (1ul << len) - 1ul) << pos;
    return (b & ~mask) | ((a << pos) & mask);
}

// bfind: the most significant bit that differs from the sign (signed
// types) or is set (unsigned); 0xffffffff when there is none.
inline uint mc_bfind_u32(uint a, bool shiftamt)
{
    if (a == 0u) return 0xffffffffu;
    uint pos = 31u - clz(a);
    return shiftamt ? 31u - pos : pos;
}
inline uint mc_bfind_s32(uint a, bool shiftamt)
{
    return mc_bfind_u32(as_type<int>(a) < 0 ? ~a : a, shiftamt);
}
inline uint mc_bfind_u64(ulong a, bool shiftamt)
{
    if (a == 0ul) return 0xffffffffu;
    uint pos = 63u - (uint)clz(a);
    return shiftamt ? 63u - pos : pos;
}
inline uint mc_bfind_s64(ulong a, bool shiftamt)
{
    return mc_bfind_u64(as_type<long>(a) < 0 ? ~a : a, shiftamt);
}

// prmt: each result byte selects one of the 8 bytes of {b, a} (a low).
inline uint mc_prmt(uint a, uint b, uint c, uint mode)
{
    ulong pool = ((ulong)b << 32) | (ulong)a;
    uint sel[4];
    uint s = c & 3u;
    switch (mode) {
    case 1: for (uint i = 0u; i < 4u; i++) sel[i] = (s + i) & 7u; break;               // f4e
    case 2: for (uint i = 0u; i < 4u; i++) sel[i] = (s + 8u - i) & 7u; break;          // b4e
    case 3: for (uint i = 0u; i < 4u; i++) sel[i] = s; break;                          // rc8
    case 4: for (uint i = 0u; i < 4u; i++) sel[i] = i < s ? s : i; break;              // ecl
    case 5: for (uint i = 0u; i < 4u; i++) sel[i] = i > s ? s : i; break;              // ecr
    case 6: for (uint i = 0u; i < 4u; i++) sel[i] = ((s & 1u) << 1) + (i & 1u); break; // rc16
    default: break;
    }
    uint d = 0u;
    for (uint i = 0u; i < 4u; i++) {
        uint byte;
        if (mode == 0u) {
            uint nib = (c >> (4u * i)) & 0xfu;
            byte = (uint)(pool >> (8u * (nib & 7u))) & 0xffu;
            if (nib & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;   // replicate the sign bit
        } else {
            byte = (uint)(pool >> (8u * sel[i])) & 0xffu;
        }
        d |= byte << (8u * i);
    }
    return d;
}

// shf: funnel shift of the 64-bit value {b, a} (a low); .clamp limits the
// amount to 32, .wrap takes it modulo 32.
inline uint mc_shf(uint a, uint b, uint c, bool left, bool clamp)
{
    uint n = clamp ? min(c, 32u) : (c & 31u);
    ulong v = ((ulong)b << 32) | (ulong)a;
    return left ? (uint)((v << n) >> 32) : (uint)(v >> n);
}

// ---- integer saturation for cvt.sat between integer types ----

inline long mc_clamp_s(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }
inline ulong mc_clamp_u(ulong v, ulong hi) { return v > hi ? hi : v; }


// ---- dot products (dp4a, dp2a): 32-bit wrapping accumulation ----

inline int mc_byte(uint x, uint k, bool s) { uint b = (x >> (8u * k)) & 0xffu; return s ? (int)(char)b : (int)b; }
inline int mc_half16(uint x, uint k, bool s) { uint h = (x >> (16u * k)) & 0xffffu; return s ? (int)(short)h : (int)h; }
inline uint mc_dp4a(uint a, uint b, uint c, uint flags)
{
    bool sa = (flags & 1u) != 0u, sb = (flags & 2u) != 0u;
    uint acc = c;
    for (uint k = 0u; k < 4u; k++)
        acc += as_type<uint>(mc_byte(a, k, sa) * mc_byte(b, k, sb));   // |product| < 2^16: no overflow
    return acc;
}
inline uint mc_dp2a(uint a, uint b, uint c, uint flags)
{
    bool sa = (flags & 1u) != 0u, sb = (flags & 2u) != 0u;
    uint base = (flags & 4u) != 0u ? 2u : 0u;
    uint acc = c;
    for (uint k = 0u; k < 2u; k++)
        acc += as_type<uint>(mc_half16(a, k, sa) * mc_byte(b, base + k, sb));   // |product| < 2^24
    return acc;
}

// lop3: each result bit is lut[(a << 2) | (b << 1) | c] of the input bits.
inline uint mc_lop3(uint a, uint b, uint c, uint lut)
{
    uint d = 0u;
    for (uint k = 0u; k < 8u; k++)
        if ((lut >> k) & 1u)
            d |= ((k & 4u) ? a : ~a) & ((k & 2u) ? b : ~b) & ((k & 1u) ? c : ~c);
    return d;
}

// bmsk: a mask of b bits starting at bit a (PTX ISA 9.0 semantics).
inline uint mc_bmsk(uint a, uint b, bool clamp)
{
    uint a1 = a & 0x1fu, b1 = b & 0x1fu, sum = a1 + b1;
    uint mask0 = 0xffffffffu << a1;
    bool pos_over = clamp && a >= 32u, width_over = clamp && b >= 32u;
    if (pos_over) mask0 = 0u;
    uint mask1 = sum >= 32u ? 0u : 0xffffffffu << sum;
    if (sum >= 32u || pos_over || width_over) mask1 = 0u;
    else if (b1 == 0u) mask1 = 0xffffffffu;
    return mask0 & ~mask1;
}

// szext: sign- or zero-extend the low n bits of a; n = min(b, 32) (.clamp)
// or b % 32 (.wrap); n = 0 gives 0.
inline uint mc_szext(uint a, uint b, bool clamp, bool is_signed)
{
    uint n = clamp ? min(b, 32u) : (b & 31u);
    if (n == 0u) return 0u;
    if (n >= 32u) return a;
    uint sh = 32u - n;
    return is_signed ? as_type<uint>(as_type<int>(a << sh) >> sh) : (a << sh) >> sh;
}

// fns.b32 (PTX ISA pseudocode: walk from base by +-1 counting set bits)
inline uint mc_fns(uint mask, uint base, int offset)
{
    if (offset == 0)
        return base < 32u && ((mask >> base) & 1u) ? base : 0xffffffffu;
    int inc = offset > 0 ? 1 : -1;
    uint count = (offset > 0 ? uint(offset) : 0u - uint(offset)) - 1u;
    for (int pos = int(min(base, 32u)); pos >= 0 && pos < 32; pos += inc) {
        if ((mask >> uint(pos)) & 1u) {
            if (count == 0u) return uint(pos);
            count--;
        }
    }
    return 0xffffffffu;
}

// cvt.pack.sat: a, b saturated to `bits` (signed or not); a above b, c above both
inline uint mc_cvt_pack(int a, int b, uint c, uint bits, bool is_signed)
{
    int lo = is_signed ? -(1 << (bits - 1u)) : 0;
    int hi = is_signed ? (1 << (bits - 1u)) - 1 : int((1u << bits) - 1u);
    uint mask = (1u << bits) - 1u;
    uint ta = uint(clamp(a, lo, hi)) & mask, tb = uint(clamp(b, lo, hi)) & mask;
    uint d = (ta << bits) | tb;
    return bits == 16u ? d : d | (c << (2u * bits));
}
