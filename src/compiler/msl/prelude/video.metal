
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
// .max), bit 11 vshl/vshr's .clamp (else .wrap), 28-31 as above.  Operands
// are extended to 33 bits, the result (34 bits) clamped to dtype's range
// of d's part, then combined with c (extended by dtype) or merged into c.
inline long mc_vpart(uint x, uint sel, bool is_signed)
{
    if (sel == 0u)
        return is_signed ? long(as_type<int>(x)) : long(x);
    bool byte = sel <= 4u;
    return long(mc_vlane(ulong(x), byte ? sel - 1u : sel - 5u, byte ? 8u : 16u, is_signed));
}

inline uint mc_vscalar(uint a, uint b, uint c, uint op, uint ctl)
{
    bool sa = (ctl >> 28) & 1u, sb = (ctl >> 29) & 1u, sd = (ctl >> 30) & 1u, sat = (ctl >> 31) & 1u;
    long x = mc_vpart(a, ctl & 7u, sa), y = mc_vpart(b, (ctl >> 3) & 7u, sb);
    long t;
    switch (op & 15u) {
    case 0u: t = x + y; break;
    case 1u: t = x - y; break;
    case 3u: t = x > y ? x - y : y - x; break;
    case 4u: t = x < y ? x : y; break;
    case 5u: t = x > y ? x : y; break;
    case 12u: case 13u: {   // vshl, vshr: b unsigned; .clamp to 32 or .wrap mod 32
        long n = (ctl & 0x800u) != 0u ? (y > 32l ? 32l : y) : (y & 31l);
        t = (op & 15u) == 12u ? as_type<long>(as_type<ulong>(x) << ulong(n)) : x >> n;   // vshl.sat is refused
        break;
    }
    default: {   // vset: 6 + eq ne lt le gt ge
        uint k = (op & 15u) - 6u;
        bool r = k == 0u ? x == y : k == 1u ? x != y : k == 2u ? x < y : k == 3u ? x <= y : k == 4u ? x > y : x >= y;
        t = r ? 1l : 0l;
        break;
    }
    }
    uint dsel = (ctl >> 6) & 7u;
    uint width = dsel == 0u ? 32u : dsel <= 4u ? 8u : 16u;
    if (sat) {
        long lo = sd ? -(1l << (width - 1u)) : 0l, hi = sd ? (1l << (width - 1u)) - 1l : long((1ul << width) - 1ul);
        t = t < lo ? lo : t > hi ? hi : t;
    }
    long cc = sd ? long(as_type<int>(c)) : long(c);
    switch ((ctl >> 9) & 3u) {
    case 1u: t += cc; break;
    case 2u: t = t < cc ? t : cc; break;
    case 3u: t = t > cc ? t : cc; break;
    default: break;
    }
    if (dsel == 0u)
        return uint(t);
    uint pos = dsel <= 4u ? 8u * (dsel - 1u) : 16u * (dsel - 5u), m = ((1u << width) - 1u) << pos;
    return ((uint(t) << pos) & m) | (c & ~m);
}
