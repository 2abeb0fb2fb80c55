
// ---- video instructions (PTX ISA 9.7.18; build_video.c builds the operands
// and the control word, ir.h documents it) ----
// SIMD: vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4.
// op: 0 add, 1 sub, 2 avrg, 3 absdiff, 4 min, 5 max, 6 + cmp vset (eq ne lt
// le gt ge); | 16 the accumulate form (.add), | 32 four byte lanes (else two
// half-word lanes).  ctl: lane i of a is element (ctl >> 3i) & 7 of the pool
// {b, a} (a's elements first), of b element (ctl >> (12 + 3i)) & 7; bits
// 24-27 the lane mask; 28/29/30 a/b/d signed; 31 .sat.
// Lane values are the selected elements sign- or zero-extended (at most 17
// bits), so every intermediate fits an int.

inline int mc_vlane(ulong pool, uint k, uint width, bool is_signed)
{
    uint v = uint(pool >> (width * k)) & ((1u << width) - 1u);
    int half = 1 << (width - 1u);
    return is_signed ? int(v ^ uint(half)) - half : int(v);
}

inline int mc_vlane_op(uint op, int x, int y)
{
    switch (op) {
    case 0u: return x + y;
    case 1u: return x - y;
    case 2u: { int s = x + y; return s >= 0 ? (s + 1) / 2 : (s - 1) / 2; }   // (s + 1) >> 1, or s >> 1 (floor)
    case 3u: return x > y ? x - y : y - x;
    case 4u: return min(x, y);
    case 5u: return max(x, y);
    case 6u: return x == y ? 1 : 0;
    case 7u: return x != y ? 1 : 0;
    case 8u: return x < y ? 1 : 0;
    case 9u: return x <= y ? 1 : 0;
    case 10u: return x > y ? 1 : 0;
    default: return x >= y ? 1 : 0;
    }
}

inline uint mc_vsimd(uint a, uint b, uint c, uint op, uint ctl)
{
    uint lanes = (op & 32u) != 0u ? 4u : 2u, width = 32u / lanes, lane_mask = (1u << width) - 1u;
    ulong pool = ((ulong)b << 32) | (ulong)a;
    bool sa = (ctl >> 28) & 1u, sb = (ctl >> 29) & 1u, sd = (ctl >> 30) & 1u, sat = (ctl >> 31) & 1u;
    bool acc = (op & 16u) != 0u;
    int lo = sd ? -(1 << (width - 1u)) : 0, hi = sd ? (1 << (width - 1u)) - 1 : int(lane_mask);
    uint d = acc ? c : 0u;
    for (uint i = 0u; i < lanes; i++) {
        int x = mc_vlane(pool, (ctl >> (3u * i)) & 7u, width, sa);
        int y = mc_vlane(pool, (ctl >> (12u + 3u * i)) & 7u, width, sb);
        int t = mc_vlane_op(op & 15u, x, y);
        if (sat)
            t = clamp(t, lo, hi);
        bool on = ((ctl >> (24u + i)) & 1u) != 0u;
        if (acc)
            d += on ? as_type<uint>(t) : 0u;
        else
            d |= ((on ? as_type<uint>(t) : c >> (width * i)) & lane_mask) << (width * i);
    }
    return d;
}

// Scalar: vadd vsub vabsdiff vmin vmax vset vshl vshr (9.7.18.1).  op as
// above, 12 vshl, 13 vshr (| 64); ctl: bits 0-2 / 3-5 / 6-8 the selector of
// a / b / d (0 the word, 1-4 byte 0-3, 5-6 half-word 0-1; d's merges the
// result into c), bits 9-10 the secondary operation (1 .add, 2 .min, 3
// .max), bit 11 vshl/vshr's .clamp (else .wrap), 28-31 as above (vset: bit
// 30 is atype's sign).
//
// What an H200 computes (its compiler expands these instructions into
// integer code; measured over 5440 forms, tests/cuda/video_insns.cu's
// header lists the rules), which departs from the ISA's pseudocode:
// - a and b are extended to 33 bits and e = the exact result, except that
//   vadd and vsub without .sat wrap to 32 bits (then sign-extend);
// - .sat: vshl/vshr truncate e to 34 bits and clamp to dtype's 32-bit
//   range (whatever d's selector); the others, with a selector on d, take
//   e as unsigned (negative or >= 2^32 gives 0xffffffff) and clamp it from
//   above only, to the byte's or half-word's maximum of dtype's sign (a
//   negative result becomes that maximum); without one, s32 clamps to
//   32 bits, u32 only raises a negative result to 0 (no upper clamp);
// - .min/.max compare the 64-bit value with c extended by dtype's sign
//   (vset: atype's), signed or unsigned by that sign, so a negative value
//   wins a .max of an unsigned form;
// - the merge into .h1 keeps the result's upper half in place, where the
//   bytes (and .h0) take the low bits.
inline long mc_vpart(uint x, uint sel, bool is_signed)
{
    if (sel == 0u)
        return is_signed ? long(as_type<int>(x)) : long(x);
    bool byte = sel <= 4u;
    return long(mc_vlane(ulong(x), byte ? sel - 1u : sel - 5u, byte ? 8u : 16u, is_signed));
}

inline long mc_vsext32(long v) { return long(as_type<int>(uint(v))); }

inline uint mc_vscalar(uint a, uint b, uint c, uint op, uint ctl)
{
    bool sa = (ctl >> 28) & 1u, sb = (ctl >> 29) & 1u, sd = (ctl >> 30) & 1u, sat = (ctl >> 31) & 1u;
    long x = mc_vpart(a, ctl & 7u, sa), y = mc_vpart(b, (ctl >> 3) & 7u, sb);
    uint k = op & 15u, dsel = (ctl >> 6) & 7u;
    bool shift = k == 12u || k == 13u, wraps = k <= 1u;   // vadd, vsub: 32-bit without .sat
    long e;
    switch (k) {
    case 0u: e = x + y; break;
    case 1u: e = x - y; break;
    case 3u: e = x > y ? x - y : y - x; break;
    case 4u: e = x < y ? x : y; break;
    case 5u: e = x > y ? x : y; break;
    case 12u: case 13u: {   // b unsigned; .clamp to 32 or .wrap mod 32; 64-bit shifts
        long n = (ctl & 0x800u) != 0u ? (y > 32l ? 32l : y) : (y & 31l);
        e = k == 12u ? as_type<long>(as_type<ulong>(x) << ulong(n)) : x >> n;
        break;
    }
    default: {   // vset: 6 + eq ne lt le gt ge
        uint q = k - 6u;
        bool r = q == 0u ? x == y : q == 1u ? x != y : q == 2u ? x < y : q == 3u ? x <= y : q == 4u ? x > y : x >= y;
        e = r ? 1l : 0l;
        break;
    }
    }
    long t;   // what the secondary operation or the merge takes
    if (!sat)
        t = wraps ? mc_vsext32(e) : e;
    else if (shift) {
        long s = as_type<long>(as_type<ulong>(e) << 30) >> 30;   // bits 0-33, sign-extended
        long lo = sd ? -2147483648l : 0l, hi = sd ? 2147483647l : 4294967295l;
        t = mc_vsext32(s < lo ? lo : s > hi ? hi : s);
    } else if (dsel != 0u) {
        long u = (e >> 32) != 0l ? 4294967295l : e;
        long m = dsel <= 4u ? (sd ? 0x7fl : 0xffl) : (sd ? 0x7fffl : 0xffffl);
        t = u > m ? m : u;
    } else if (sd)
        t = e < -2147483648l ? -2147483648l : e > 2147483647l ? 2147483647l : e;
    else
        t = e < 0l ? 0l : wraps ? mc_vsext32(e) : e;
    uint sec = (ctl >> 9) & 3u;
    if (sec == 1u)
        return uint(t) + c;
    if (sec != 0u) {
        long cc = sd ? long(as_type<int>(c)) : long(c);
        bool less = sd ? t < cc : as_type<ulong>(t) < as_type<ulong>(cc);
        bool more = sd ? t > cc : as_type<ulong>(t) > as_type<ulong>(cc);
        return (sec == 2u ? less : more) ? uint(t) : c;
    }
    if (dsel == 0u)
        return uint(t);
    uint pos = dsel <= 4u ? 8u * (dsel - 1u) : 0u;   // .h1: the upper half in place
    uint m = dsel <= 4u ? 0xffu << pos : dsel == 5u ? 0xffffu : 0xffff0000u;
    return ((uint(t) << pos) & m) | (c & ~m);
}
